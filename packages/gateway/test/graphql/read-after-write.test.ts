import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { apiClient, type Client } from '../business-units/support.js';

const P = 'graphql-read-after-write';

/**
 * §9.2 read-after-write consistency inside one document. Mutation fields run one after another,
 * but the loaders that resolve parentUnit / topLevelUnit / ancestors live for the whole request:
 * a unit an earlier field changed must not be answered from what an even earlier field cached.
 */
describe('GraphQL: references resolved after a write in the same document', () => {
  let gateway: TestGateway;
  let admin: Client;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await apiClient(gateway, P, ['manage_business_units']);
  });
  afterAll(() => gateway.close());

  it('parentUnit/topLevelUnit/ancestors show the parent as the earlier mutation field left it', async () => {
    await admin.gql('mutation { createBusinessUnit(draft: {key: "acme", name: "ACME", unitType: Company}) { id } }');
    await admin.gql('mutation { createBusinessUnit(draft: {key: "acme-sales", name: "Sales", unitType: Division, parentUnit: {key: "acme"}}) { id } }');

    const data = await admin.gql(`mutation {
      first: updateBusinessUnit(key: "acme-sales", version: 1, actions: [{changeName: {name: "Sales 1"}}]) { parentUnit { name version } }
      rename: updateBusinessUnit(key: "acme", version: 1, actions: [{changeName: {name: "ACME Renamed"}}]) { name version }
      second: updateBusinessUnit(key: "acme-sales", version: 2, actions: [{changeName: {name: "Sales 2"}}]) {
        parentUnit { name version } topLevelUnit { name version } ancestors { name version }
      }
    }`);
    expect(data.first).toEqual({ parentUnit: { name: 'ACME', version: 1 } });
    expect(data.rename).toEqual({ name: 'ACME Renamed', version: 2 });
    expect(data.second).toEqual({
      parentUnit: { name: 'ACME Renamed', version: 2 },
      topLevelUnit: { name: 'ACME Renamed', version: 2 },
      ancestors: [{ name: 'ACME Renamed', version: 2 }],
    });
  });

  it('a move rewrites the descendants, and later fields see the new tree', async () => {
    await admin.gql('mutation { createBusinessUnit(draft: {key: "old-co", name: "Old", unitType: Company}) { id } }');
    await admin.gql('mutation { createBusinessUnit(draft: {key: "new-co", name: "New", unitType: Company}) { id } }');
    await admin.gql('mutation { createBusinessUnit(draft: {key: "mid", name: "Mid", unitType: Division, parentUnit: {key: "old-co"}}) { id } }');
    await admin.gql('mutation { createBusinessUnit(draft: {key: "leaf", name: "Leaf", unitType: Division, parentUnit: {key: "mid"}}) { id } }');

    const data = await admin.gql(`mutation {
      before: updateBusinessUnit(key: "leaf", version: 1, actions: [{changeName: {name: "Leaf 1"}}]) {
        parentUnit { version ancestors { key } topLevelUnit { key } }
      }
      move: updateBusinessUnit(key: "mid", version: 1, actions: [{changeParentUnit: {parentUnit: {key: "new-co"}}}]) { version }
      after: updateBusinessUnit(key: "leaf", version: 3, actions: [{changeName: {name: "Leaf 2"}}]) {
        version
        parentUnit { version ancestors { key } topLevelUnit { key } }
        ancestors { key version }
        topLevelUnit { key }
      }
    }`);
    expect(data.before).toEqual({ parentUnit: { version: 1, ancestors: [{ key: 'old-co' }], topLevelUnit: { key: 'old-co' } } });
    // The leaf's version 3 is the move's rewrite of it (version 2 was the first field).
    expect(data.after).toEqual({
      version: 4,
      parentUnit: { version: 2, ancestors: [{ key: 'new-co' }], topLevelUnit: { key: 'new-co' } },
      ancestors: [
        { key: 'new-co', version: 1 },
        { key: 'mid', version: 2 },
      ],
      topLevelUnit: { key: 'new-co' },
    });
  });
});
