/**
 * Issue 29: every REST update action of a resource with a GraphQL update mutation is a member of
 * that mutation's `<Resource>UpdateAction` input, so GraphQL clients can do what REST clients can.
 * The REST action tables are walked as the routes use them; the GraphQL inputs are read by
 * introspection. An action a new REST module adds without its GraphQL member fails here.
 * Resources without a GraphQL update mutation in Herald (customers, products, order edits, …)
 * are not compared. The project's REST table is the union app.ts composes.
 */
import { plainSecretBox } from '@herald/delivery';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { externalOAuthActions } from '../../src/oauth/external/settings.js';
import { associateRoleDefinition } from '../../src/resources/associate-roles/definition.js';
import { businessUnitActions, myBusinessUnitActions } from '../../src/resources/business-units/actions.js';
import { businessUnitProjectActions } from '../../src/resources/business-units/project-settings.js';
import { customerGroupAssignmentActions } from '../../src/resources/business-units/customer-groups.js';
import { modeActions } from '../../src/resources/business-units/modes.js';
import { unitTypeActions } from '../../src/resources/business-units/unit-type.js';
import { cartActions, myCartActions } from '../../src/resources/carts/actions.js';
import { cartsProjectActions } from '../../src/resources/carts/retention.js';
import { messagesProjectActions } from '../../src/resources/messages/configuration.js';
import { createOrderActions } from '../../src/resources/orders/actions.js';
import { environmentProjectActions } from '../../src/resources/projects/environment.js';
import { searchIndexingActions } from '../../src/resources/projects/search-indexing.js';
import { projectSettingsActions } from '../../src/resources/projects/settings-actions.js';
import { myQuoteRequestActions, quoteRequestActions } from '../../src/resources/quote-requests/actions.js';
import { myQuoteActions, quoteActions } from '../../src/resources/quotes/actions.js';
import { stagedQuoteActions } from '../../src/resources/staged-quotes/actions.js';
import { apiClient, type Client } from '../business-units/support.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'graphql-action-coverage';

/** Each GraphQL update-action input and the REST action table its mutation's resolver applies. */
const COMPARED: readonly (readonly [graphqlInput: string, restActions: object])[] = [
  ['OrderUpdateAction', createOrderActions()],
  ['CartUpdateAction', cartActions],
  ['MyCartUpdateAction', myCartActions],
  ['BusinessUnitUpdateAction', { ...businessUnitActions, ...modeActions, ...customerGroupAssignmentActions, ...unitTypeActions }],
  ['MyBusinessUnitUpdateAction', myBusinessUnitActions],
  ['AssociateRoleUpdateAction', associateRoleDefinition.actions],
  ['QuoteRequestUpdateAction', quoteRequestActions],
  ['MyQuoteRequestUpdateAction', myQuoteRequestActions],
  ['StagedQuoteUpdateAction', stagedQuoteActions],
  ['QuoteUpdateAction', quoteActions],
  ['MyQuoteUpdateAction', myQuoteActions],
  [
    'ProjectSettingsUpdateAction',
    {
      ...projectSettingsActions,
      ...searchIndexingActions,
      ...messagesProjectActions,
      ...cartsProjectActions,
      ...externalOAuthActions(plainSecretBox),
      ...businessUnitProjectActions,
      ...environmentProjectActions,
    },
  ],
];

/**
 * REST actions the GraphQL API genuinely lacks, each with the reason. Nothing else may be missing.
 */
const REST_ONLY: Readonly<Record<string, readonly string[]>> = {
  // §4.3 lists BusinessUnitUpdateAction's members; the reference's associate modes, customer group
  // assignments and unit type actions are REST's (resources/business-units/service.ts).
  BusinessUnitUpdateAction: [...Object.keys(modeActions), ...Object.keys(customerGroupAssignmentActions), ...Object.keys(unitTypeActions)],
  // The official MyQuoteRequestUpdateAction has only cancelQuoteRequest, the same change as REST's
  // changeMyQuoteRequestState (and its alias changeQuoteRequestState) to Cancelled.
  MyQuoteRequestUpdateAction: ['changeMyQuoteRequestState', 'changeQuoteRequestState'],
};

describe('GraphQL update actions cover the REST update actions', { timeout: 120_000 }, () => {
  let gateway: TestGateway;
  let admin: Client;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await apiClient(gateway, P, ['manage_project']);
  }, 120_000);
  afterAll(() => gateway?.close());

  async function membersOf(input: string): Promise<string[]> {
    const data = await admin.gql(`{ __type(name: "${input}") { kind inputFields { name } } }`);
    const type = data.__type as { kind: string; inputFields: { name: string }[] } | null;
    expect(type?.kind, `${input} is an input object of the schema`).toBe('INPUT_OBJECT');
    return (type?.inputFields ?? []).map((field) => field.name);
  }

  it.each(COMPARED)('%s has a member for every REST action', async (input, restActions) => {
    const members = new Set(await membersOf(input));
    const restOnly = new Set(REST_ONLY[input] ?? []);
    const missing = Object.keys(restActions).filter((action) => !members.has(action) && !restOnly.has(action));
    expect(missing, `REST actions missing from GraphQL ${input}`).toEqual([]);
  });

  it('lists as REST-only only actions REST has and GraphQL lacks', async () => {
    for (const [input, names] of Object.entries(REST_ONLY)) {
      const rest = Object.keys(COMPARED.find(([name]) => name === input)?.[1] ?? {});
      const members = new Set(await membersOf(input));
      for (const name of names) {
        expect(rest, `${input}: ${name} is a REST action`).toContain(name);
        expect(members.has(name), `${input}: ${name} is not a GraphQL member`).toBe(false);
      }
    }
  });
});
