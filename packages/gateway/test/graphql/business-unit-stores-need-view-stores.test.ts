import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { apiClient, customerClient, type Client, type Json } from '../business-units/support.js';

const P = 'graphql-bu-stores';

const ME_STORES = /* GraphQL */ `
  {
    me {
      businessUnit(key: "berlin-co") {
        key
        storesRef {
          typeId
          key
        }
        stores {
          key
          name(locale: "en")
        }
      }
    }
  }
`;
const CLIENT_STORES = /* GraphQL */ `
  {
    businessUnit(key: "berlin-co") {
      key
      storesRef {
        typeId
        key
      }
      stores {
        key
        name(locale: "en")
      }
    }
  }
`;
const EXPAND_STORES = `expand=${encodeURIComponent('stores[*]')}`;

const REFS = [{ typeId: 'store', key: 'berlin' }];
const RESOLVED = [{ key: 'berlin', name: 'Berlin Flagship' }];

/**
 * `BusinessUnit.stores` resolves Store documents, which REST shows only with `view_stores`: on the
 * store routes, and in reference expansion (`EXPANSION_VIEW_SCOPES`, `expand=stores[*]`), which
 * leaves them unexpanded without it. GraphQL follows the same rule, answered like `parentUnit` for
 * a unit the token may not see: the nullable field is null, and `storesRef` still names the stores.
 */
describe('BusinessUnit.stores needs view_stores, like REST expansion', () => {
  let gateway: TestGateway;
  let admin: Client;
  let buyer: Client;
  let storeViewingBuyer: Client;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await apiClient(gateway, P, ['manage_business_units', 'manage_stores']);
    buyer = await customerClient(gateway, P, ['manage_my_business_units']);
    storeViewingBuyer = await customerClient(gateway, P, ['manage_my_business_units', 'view_stores']);
    await admin.ok('POST', '/stores', { key: 'berlin', name: { en: 'Berlin Flagship' } }, 201);
    const associates = [buyer, storeViewingBuyer].map((client) => ({ roles: ['Buyer'], customer: { id: client.customerId } }));
    await admin.ok('POST', '/business-units', { key: 'berlin-co', name: 'Berlin Co', unitType: 'Company', stores: REFS, associates }, 201);
  });
  afterAll(() => gateway.close());

  it('REST (control): without view_stores the store is refused and its references stay unexpanded', async () => {
    expect((await buyer.rest('GET', '/stores/key=berlin')).status).toBe(403);
    const unit = await buyer.ok('GET', `/me/business-units/key=berlin-co?${EXPAND_STORES}`);
    expect(unit.stores).toEqual(REFS);
  });

  it('answers stores as null for a customer token without view_stores, with storesRef still readable', async () => {
    const data = await buyer.gql(ME_STORES);
    expect(data.me.businessUnit).toEqual({ key: 'berlin-co', storesRef: REFS, stores: null });
  });

  it('answers stores as null for an API client with view_business_units but not view_stores', async () => {
    const viewer = await apiClient(gateway, P, ['view_business_units']);
    expect((await viewer.ok('GET', `/business-units/key=berlin-co?${EXPAND_STORES}`)).stores).toEqual(REFS);
    const data = await viewer.gql(CLIENT_STORES);
    expect(data.businessUnit).toEqual({ key: 'berlin-co', storesRef: REFS, stores: null });
  });

  it('resolves the stores with view_stores, or a scope implying it, whose tokens REST shows the store', async () => {
    const readers: Array<[Client, string]> = [
      [storeViewingBuyer, ME_STORES],
      [await apiClient(gateway, P, ['view_business_units', 'view_stores']), CLIENT_STORES],
      [admin, CLIENT_STORES],
      [await apiClient(gateway, P, ['manage_project']), CLIENT_STORES],
    ];
    for (const [reader, query] of readers) {
      expect((await reader.ok('GET', '/stores/key=berlin')).key).toBe('berlin');
      const data = await reader.gql(query);
      const unit = (data.me?.businessUnit ?? data.businessUnit) as Json;
      expect(unit).toEqual({ key: 'berlin-co', storesRef: REFS, stores: RESOLVED });
    }
  });
});
