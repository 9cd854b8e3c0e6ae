import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { apiClient, messagesOf, type Client, type Json } from './support.js';

const P = 'bu-hierarchy';

const TREE = /* GraphQL */ `
  key version unitType
  parentUnitRef { typeId key } parentUnit { key }
  ancestors { key unitType } topLevelUnitRef { typeId key } topLevelUnit { key unitType }
`;

const create = (admin: Client, draft: Json) =>
  admin
    .gql(`mutation ($draft: BusinessUnitDraft!) { createBusinessUnit(draft: $draft) { ${TREE} } }`, { draft })
    .then((data) => data.createBusinessUnit as Json);

const read = (admin: Client, key: string) => admin.gql(`{ businessUnit(key: "${key}") { id ${TREE} } }`).then((data) => data.businessUnit as Json);

const ref = (key: string) => ({ typeId: 'business-unit', key });

/** §2.2: a Company has no parent, a Division has one; ancestors run from the Company down; topLevelUnit is derived. */
describe('Business unit hierarchy', () => {
  let gateway: TestGateway;
  let admin: Client;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await apiClient(gateway, P, ['manage_business_units', 'view_messages']);
  });
  afterAll(() => gateway.close());

  /** What a unit's writes appended to the transactional outbox: kind, message type or change, version. */
  async function outboxOf(resourceId: string): Promise<Array<[string, string, number]>> {
    const result = await gateway.db.query<{ kind: string; payload: Json }>(
      "SELECT kind, payload FROM outbox WHERE project_key = $1 AND resource_type_id = 'business-unit' AND payload -> 'resource' ->> 'id' = $2 ORDER BY seq",
      [P, resourceId],
    );
    return result.rows.map(({ kind, payload }) => [
      kind,
      (kind === 'message' ? payload.type : payload.notificationType) as string,
      (kind === 'message' ? payload.resourceVersion : payload.version) as number,
    ]);
  }

  it('Company → Division → Division, then changeParentUnit moves the subtree', async () => {
    const acme = await create(admin, { key: 'acme', name: 'ACME', unitType: 'Company' });
    expect(acme).toEqual({
      key: 'acme',
      version: 1,
      unitType: 'Company',
      parentUnitRef: null,
      parentUnit: null,
      ancestors: [],
      topLevelUnitRef: ref('acme'),
      topLevelUnit: { key: 'acme', unitType: 'Company' },
    });

    const sales = await create(admin, { key: 'sales', name: 'Sales', unitType: 'Division', parentUnit: { typeId: 'business-unit', key: 'acme' } });
    expect(sales).toMatchObject({ parentUnitRef: ref('acme'), parentUnit: { key: 'acme' }, ancestors: [{ key: 'acme' }], topLevelUnit: { key: 'acme' } });

    const emea = await create(admin, { key: 'sales-emea', name: 'Sales EMEA', unitType: 'Division', parentUnit: { key: 'sales' } });
    expect(emea).toEqual({
      key: 'sales-emea',
      version: 1,
      unitType: 'Division',
      parentUnitRef: ref('sales'),
      parentUnit: { key: 'sales' },
      ancestors: [
        { key: 'acme', unitType: 'Company' },
        { key: 'sales', unitType: 'Division' },
      ],
      topLevelUnitRef: ref('acme'),
      topLevelUnit: { key: 'acme', unitType: 'Company' },
    });

    await create(admin, { key: 'globex', name: 'Globex', unitType: 'Company' });
    const moved = await admin.gql(
      `mutation { updateBusinessUnit(key: "sales", version: 1, actions: [{changeParentUnit: {parentUnit: {key: "globex"}}}]) { ${TREE} } }`,
    );
    expect(moved.updateBusinessUnit).toMatchObject({
      version: 2,
      parentUnitRef: ref('globex'),
      ancestors: [{ key: 'globex' }],
      topLevelUnitRef: ref('globex'),
      topLevelUnit: { key: 'globex' },
    });

    // The descendant follows in the same write: a new version of its own, no message.
    const below = await read(admin, 'sales-emea');
    expect(below).toMatchObject({
      version: 2,
      parentUnitRef: ref('sales'),
      ancestors: [{ key: 'globex' }, { key: 'sales' }],
      topLevelUnitRef: ref('globex'),
      topLevelUnit: { key: 'globex' },
    });
    expect((await messagesOf(admin, below.id as string)).map((message) => message.type)).toEqual(['BusinessUnitCreated']);

    // The outbox (what subscriptions receive) has the change notifications of both writes.
    const salesId = (await read(admin, 'sales')).id as string;
    expect(await outboxOf(salesId)).toEqual([
      ['message', 'BusinessUnitCreated', 1],
      ['change', 'ResourceCreated', 1],
      ['message', 'BusinessUnitParentChanged', 2],
      ['change', 'ResourceUpdated', 2],
    ]);
    expect(await outboxOf(below.id as string)).toEqual([
      ['message', 'BusinessUnitCreated', 1],
      ['change', 'ResourceCreated', 1],
      ['change', 'ResourceUpdated', 2],
    ]);

    // REST sees the same, and can query by the derived fields.
    const byTop = await admin.ok('GET', `/business-units?where=${encodeURIComponent('topLevelUnit(key = "globex")')}&sort=key+asc`);
    expect(byTop.results.map((unit: Json) => unit.key)).toEqual(['globex', 'sales', 'sales-emea']);
    const restEmea = await admin.ok('GET', '/business-units/key=sales-emea');
    expect(restEmea).toMatchObject({ ancestors: [ref('globex'), ref('sales')], topLevelUnit: ref('globex'), parentUnit: ref('sales') });
  });

  it('refuses cycles, a Company with a parent and a Division without one', async () => {
    await create(admin, { key: 'north', name: 'North', unitType: 'Company' });
    await create(admin, { key: 'north-a', name: 'A', unitType: 'Division', parentUnit: { key: 'north' } });
    await create(admin, { key: 'north-a-1', name: 'A1', unitType: 'Division', parentUnit: { key: 'north-a' } });

    const move = (key: string, parent: string) =>
      admin.gqlError(`mutation { updateBusinessUnit(key: "${key}", version: 1, actions: [{changeParentUnit: {parentUnit: {key: "${parent}"}}}]) { key } }`);
    expect((await move('north-a', 'north-a-1')).extensions.code).toBe('InvalidOperation');
    expect((await move('north-a', 'north-a')).extensions.code).toBe('InvalidOperation');
    expect((await move('north', 'north-a')).extensions.code).toBe('InvalidOperation');
    expect((await move('north-a', 'nowhere')).extensions.code).toBe('ReferencedResourceNotFound');

    const companyWithParent = await admin.gqlError(
      'mutation { createBusinessUnit(draft: {key: "c2", name: "C", unitType: Company, parentUnit: {key: "north"}}) { key } }',
    );
    expect(companyWithParent.extensions).toMatchObject({ code: 'InvalidInput', field: 'parentUnit' });
    const orphan = await admin.gqlError('mutation { createBusinessUnit(draft: {key: "d2", name: "D", unitType: Division}) { key } }');
    expect(orphan.extensions).toMatchObject({ code: 'InvalidInput', field: 'parentUnit' });
    const lostParent = await admin.gqlError(
      'mutation { createBusinessUnit(draft: {key: "d3", name: "D", unitType: Division, parentUnit: {key: "nowhere"}}) { key } }',
    );
    expect(lostParent.extensions.code).toBe('ReferencedResourceNotFound');
  });

  /**
   * §2.1 ResourceIdentifier: `typeId` is optional. Generated GraphQL clients send unset input
   * fields as null, so null counts as absent, for `typeId` as for `id` and `key`, in REST alike.
   */
  it('takes typeId: null in a parent identifier as absent (GraphQL and REST), and still refuses another typeId', async () => {
    await create(admin, { key: 'nulls', name: 'Nulls', unitType: 'Company' });
    const answer = await admin.graphql('mutation ($draft: BusinessUnitDraft!) { createBusinessUnit(draft: $draft) { key parentUnitRef { key } } }', {
      draft: { key: 'nulls-a', name: 'A', unitType: 'Division', parentUnit: { typeId: null, id: null, key: 'nulls' } },
    });
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    expect(answer.data?.createBusinessUnit).toEqual({ key: 'nulls-a', parentUnitRef: { key: 'nulls' } });

    const rest = await admin.ok(
      'POST',
      '/business-units',
      { key: 'nulls-b', name: 'B', unitType: 'Division', parentUnit: { typeId: null, key: 'nulls' } },
      201,
    );
    expect(rest.parentUnit).toEqual(ref('nulls'));

    const wrongType = await admin.gqlError(
      'mutation { createBusinessUnit(draft: {key: "nulls-c", name: "C", unitType: Division, parentUnit: {typeId: "store", key: "nulls"}}) { key } }',
    );
    expect(wrongType.extensions).toMatchObject({ code: 'InvalidInput', field: 'parentUnit' });
    const restWrongType = await admin.rest('POST', '/business-units', {
      key: 'nulls-d',
      name: 'D',
      unitType: 'Division',
      parentUnit: { typeId: 'store', key: 'nulls' },
    });
    expect(restWrongType.status).toBe(400);
  });

  it('deletes a unit only when it has no Divisions', async () => {
    await create(admin, { key: 'south', name: 'South', unitType: 'Company' });
    await create(admin, { key: 'south-a', name: 'A', unitType: 'Division', parentUnit: { key: 'south' } });
    const refused = await admin.gqlError('mutation { deleteBusinessUnit(key: "south", version: 1) { key } }');
    expect(refused.extensions.code).toBe('ReferenceExists');
    await admin.gql('mutation { deleteBusinessUnit(key: "south-a", version: 1) { key } }');
    await admin.gql('mutation { deleteBusinessUnit(key: "south", version: 1) { key } }');
  });

  it('Divisions take their stores from the parent unless given their own', async () => {
    const admin2 = await apiClient(gateway, P, ['manage_business_units', 'manage_stores']);
    await admin2.ok('POST', '/stores', { key: 'lisbon' }, 201);
    await create(admin2, { key: 'west', name: 'West', unitType: 'Company' });
    const inherited = await admin2.gql(
      'mutation { createBusinessUnit(draft: {key: "west-a", name: "A", unitType: Division, parentUnit: {key: "west"}}) { storeMode storesRef { key } } }',
    );
    expect(inherited.createBusinessUnit).toEqual({ storeMode: 'FromParent', storesRef: [] });
    const own = await admin2.gql(
      'mutation { createBusinessUnit(draft: {key: "west-b", name: "B", unitType: Division, parentUnit: {key: "west"}, stores: [{key: "lisbon"}]}) { storeMode storesRef { key } } }',
    );
    expect(own.createBusinessUnit).toEqual({ storeMode: 'Explicit', storesRef: [{ key: 'lisbon' }] });
    const company = await admin2.gqlError(
      'mutation { createBusinessUnit(draft: {key: "east", name: "E", unitType: Company, storeMode: "FromParent"}) { key } }',
    );
    expect(company.extensions).toMatchObject({ code: 'InvalidInput', field: 'storeMode' });
  });
});
