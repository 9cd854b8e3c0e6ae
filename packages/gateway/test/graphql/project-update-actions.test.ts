import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { bearer, startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'graphql-project-updates';

/**
 * Issue 29: GraphQL's `updateProject` applies every action of REST's `POST /{projectKey}`, the
 * reference's own project actions (changeName, changeCurrencies, …) as well as the feature
 * modules' (messages, carts, business units); before, it knew only the feature modules' table.
 * The project is read back through REST.
 */
describe('GraphQL: updateProject with the REST project actions', { timeout: 120_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_project_settings', 'view_project_settings']);
  }, 120_000);
  afterAll(() => gateway?.close());

  const UPDATE = `mutation ($version: Long!, $actions: [ProjectSettingsUpdateAction!]!) { updateProject(version: $version, actions: $actions) { version name } }`;

  async function updateProject(actions: Json[]): Promise<Json> {
    const { version } = await admin.read(`/${P}`);
    const payload = { query: UPDATE, variables: { version, actions } };
    const response = await gateway.app.inject({ method: 'POST', url: `/${P}/graphql`, headers: bearer(admin.token), payload });
    return response.json() as Json;
  }

  it('changes the name, currencies, rounding, discounts, messages and carts configuration', async () => {
    const answer = await updateProject([
      { changeName: { name: 'Renamed through GraphQL' } },
      { changeCurrencies: { currencies: ['EUR', 'USD'] } },
      { changeTaxRoundingMode: { taxRoundingMode: 'HalfDown' } },
      { setDiscountsConfiguration: { discountsConfiguration: { discountCombinationMode: 'BestDeal' } } },
      { changeMessagesConfiguration: { messagesConfiguration: { enabled: true, deleteDaysAfterCreation: 30 } } },
      { changeCartsConfiguration: { cartsConfiguration: { deleteDaysAfterLastModification: 45 } } },
    ]);
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    expect(answer.data.updateProject.name).toBe('Renamed through GraphQL');
    const project = await admin.read(`/${P}`);
    expect(project).toMatchObject({
      name: 'Renamed through GraphQL',
      currencies: ['EUR', 'USD'],
      carts: { taxRoundingMode: 'HalfDown', deleteDaysAfterLastModification: 45 },
      discounts: { discountCombinationMode: 'BestDeal' },
      messages: { enabled: true, deleteDaysAfterCreation: 30 },
    });
  });

  it('refuses what REST refuses: no currency left, setExternalOAuth without manage_project', async () => {
    const empty = await updateProject([{ changeCurrencies: { currencies: [] } }]);
    expect(empty.errors?.[0]?.extensions).toMatchObject({ code: 'InvalidInput' });
    const oauth = await updateProject([
      { setExternalOAuth: { externalOAuth: { url: 'https://auth.example.com/introspect', authorizationHeader: 'Bearer x' } } },
    ]);
    expect(oauth.errors?.[0]?.extensions).toMatchObject({ code: 'insufficient_scope' });
    expect((await admin.read(`/${P}`)).externalOAuth).toBeUndefined();
  });
});
