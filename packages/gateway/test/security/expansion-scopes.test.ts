/**
 * Reference expansion (§4.4.7) answers only what the token may view: a reference to something
 * the token has no view scope for stays unexpanded, without an error (§7), the same rule GraphQL
 * applies to `associates.customer` ("own customer or view_customers"). Before, REST expanded
 * anything, e.g. a fellow associate's whole Customer through `/me/business-units`.
 * The quote-request case (`?expand=customer` with `view_quote_requests`) is in
 * quote-requests/quote-requests.test.ts.
 */
import type { DocumentStore } from '@herald/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthContext } from '../../src/auth/types.js';
import { expansionLoader } from '../../src/resources/shared/route-helpers.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { apiClient, customerClient, type Client, type Json } from '../business-units/support.js';

const P = 'expansion-scopes';
const ASSOCIATES_CUSTOMER = encodeURIComponent('associates[*].customer');

describe('expand over REST needs the view scope of what it loads', () => {
  let gateway: TestGateway;
  let alice: Client; // Admin associate
  let bob: Client; // Buyer associate, only manage_my_business_units

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    const admin = await apiClient(gateway, P, ['manage_business_units']);
    alice = await customerClient(gateway, P, ['manage_my_business_units']);
    bob = await customerClient(gateway, P, ['manage_my_business_units']);
    await admin.ok(
      'POST',
      '/business-units',
      {
        key: 'acme',
        name: 'ACME',
        unitType: 'Company',
        associates: [
          { roles: ['Admin'], customer: { id: alice.customerId } },
          { roles: ['Buyer'], customer: { id: bob.customerId } },
        ],
      },
      201,
    );
  });
  afterAll(() => gateway.close());

  const customerOf = (unit: Json, id: string | undefined): Json | undefined =>
    (unit.associates as Json[]).find((associate) => associate.customer.id === id)?.customer as Json | undefined;

  it("/me/business-units expands the caller's own customer only, as GraphQL answers", async () => {
    const gql = await bob.graphql('{ me { businessUnit(key: "acme") { associates { customer { email } } } } }');
    expect((gql.errors ?? []).some((error) => error.extensions?.code === 'InsufficientScope')).toBe(true);

    const unit = await bob.ok('GET', `/me/business-units/key=acme?expand=${ASSOCIATES_CUSTOMER}`);
    expect(customerOf(unit, alice.customerId)).toEqual({ typeId: 'customer', id: alice.customerId });
    expect(customerOf(unit, bob.customerId)?.obj).toMatchObject({ id: bob.customerId });
  });

  it('/business-units with view_business_units leaves customers unexpanded; with view_customers expands them', async () => {
    const viewer = await apiClient(gateway, P, ['view_business_units']);
    const gql = await viewer.graphql('{ businessUnit(key: "acme") { associates { customer { email } } } }');
    expect(gql.errors?.[0]?.extensions?.code).toBe('InsufficientScope');
    const unit = await viewer.ok('GET', `/business-units/key=acme?expand=${ASSOCIATES_CUSTOMER}`);
    for (const associate of unit.associates as Json[]) expect(associate.customer.obj).toBeUndefined();
    const page = await viewer.ok('GET', `/business-units?expand=${ASSOCIATES_CUSTOMER}`);
    for (const associate of (page.results as Json[]).flatMap((result) => result.associates as Json[])) expect(associate.customer.obj).toBeUndefined();

    const allowed = await apiClient(gateway, P, ['view_business_units', 'view_customers']);
    const expanded = await allowed.ok('GET', `/business-units/key=acme?expand=${ASSOCIATES_CUSTOMER}`);
    expect(customerOf(expanded, alice.customerId)?.obj).toMatchObject({ id: alice.customerId });
  });
});

describe('expansionLoader', () => {
  const loaded: Array<[string, readonly string[]]> = [];
  const documents = {
    getMany: async (_projectKey: string, typeId: string, ids: readonly string[]) => {
      loaded.push([typeId, ids]);
      return new Map(ids.map((id) => [id, { id }]));
    },
  } as unknown as DocumentStore;
  const auth = (scopes: string[], customerId?: string): AuthContext => ({
    projectKey: 'p',
    clientId: 'c',
    scopes: new Set(scopes),
    ...(customerId === undefined ? {} : { customerId }),
  });

  it('never loads subscriptions (their documents hold destination secrets) nor types it does not know, whatever the scopes', async () => {
    loaded.length = 0;
    const admin = expansionLoader(documents, 'p', auth(['manage_project', 'manage_subscriptions']));
    for (const typeId of ['subscription', 'api-client', 'constructor', '__proto__']) expect((await admin(typeId, ['x'])).size).toBe(0);
    expect(loaded).toEqual([]);
  });

  it("loads a type with its view scope (implied by manage_X and manage_project), a customer token's own customer without it", async () => {
    loaded.length = 0;
    expect((await expansionLoader(documents, 'p', auth(['manage_states']))('state', ['s'])).size).toBe(1);
    expect((await expansionLoader(documents, 'p', auth(['manage_project']))('customer', ['a', 'b'])).size).toBe(2);
    expect((await expansionLoader(documents, 'p', auth(['view_stores']))('type', ['t'])).size).toBe(0);
    expect((await expansionLoader(documents, 'p', undefined)('store', ['s'])).size).toBe(0);
    const own = await expansionLoader(documents, 'p', auth(['manage_my_business_units'], 'me'))('customer', ['me', 'other']);
    expect([...own.keys()]).toEqual(['me']);
  });
});
