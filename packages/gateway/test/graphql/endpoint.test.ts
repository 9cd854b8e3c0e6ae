import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestGateway, tokenFor, type TestGateway } from '../support/gateway.js';
import { apiClient, type Client, type Json } from '../business-units/support.js';

const P = 'graphql-endpoint';

/** §4.3 member lists, as the spec writes them. */
const UPDATE_ACTION_MEMBERS = [
  'addAddress',
  'addAssociate',
  'addBillingAddressId',
  'addShippingAddressId',
  'addStore',
  'changeAddress',
  'changeAssociate',
  'changeName',
  'changeParentUnit',
  'changeStatus',
  'removeAddress',
  'removeAssociate',
  'removeBillingAddressId',
  'removeShippingAddressId',
  'removeStore',
  'setAddressCustomField',
  'setAddressCustomType',
  'setAssociates',
  'setContactEmail',
  'setCustomField',
  'setCustomType',
  'setDefaultBillingAddress',
  'setDefaultShippingAddress',
  'setStores',
  'setStoreMode',
];
const MY_UPDATE_ACTION_MEMBERS = [
  'addAddress',
  'addBillingAddressId',
  'addShippingAddressId',
  'changeAddress',
  'changeAssociate',
  'changeName',
  'changeParentUnit',
  'removeAddress',
  'removeAssociate',
  'removeBillingAddressId',
  'removeShippingAddressId',
  'setAddressCustomField',
  'setAddressCustomType',
  'setContactEmail',
  'setCustomField',
  'setCustomType',
  'setDefaultBillingAddress',
  'setDefaultShippingAddress',
];
/** §2.2 BusinessUnit fields. */
const BUSINESS_UNIT_FIELDS = [
  'id',
  'version',
  'key',
  'name',
  'contactEmail',
  'addresses',
  'defaultShippingAddress',
  'defaultBillingAddress',
  'defaultShippingAddressId',
  'defaultBillingAddressId',
  'shippingAddresses',
  'billingAddresses',
  'shippingAddressIds',
  'billingAddressIds',
  'status',
  'storesRef',
  'stores',
  'storeMode',
  'unitType',
  'associates',
  'custom',
  'parentUnitRef',
  'parentUnit',
  'ancestors',
  'topLevelUnitRef',
  'topLevelUnit',
  'createdAt',
  'lastModifiedAt',
  'createdBy',
  'lastModifiedBy',
  // The reference's, beside §2.2's (issue 27).
  'associateMode',
  'inheritedAssociates',
];

const post = (gateway: TestGateway, token: string, payload: unknown, headers: Record<string, string> = {}) =>
  gateway.app.inject({ method: 'POST', url: `/${P}/graphql`, headers: { ...bearer(token), ...headers }, payload: payload as Json });

describe('POST /{projectKey}/graphql', () => {
  let gateway: TestGateway;
  let admin: Client;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P], config: { mode: 'development' } });
    admin = await apiClient(gateway, P, ['manage_business_units']);
    await admin.gql('mutation { createBusinessUnit(draft: {key: "acme", name: "ACME", unitType: Company}) { id } }');
  });
  afterAll(() => gateway.close());

  describe('schema', () => {
    it('answers introspection with every §4.3 member and every §2.2 field', async () => {
      const data = await admin.gql(`{
        schema: __schema { queryType { name } mutationType { name } }
        unit: __type(name: "BusinessUnit") { fields { name } }
        actions: __type(name: "BusinessUnitUpdateAction") { inputFields { name } }
        myActions: __type(name: "MyBusinessUnitUpdateAction") { inputFields { name } }
        myDraft: __type(name: "MyBusinessUnitDraft") { inputFields { name } }
        draft: __type(name: "BusinessUnitDraft") { inputFields { name } }
        mutations: __type(name: "Mutation") { fields { name } }
      }`);
      expect(data.schema).toEqual({ queryType: { name: 'Query' }, mutationType: { name: 'Mutation' } });
      const names = (list: Json[]) => list.map((field) => field.name as string).sort();
      expect(names(data.unit.fields)).toEqual([...BUSINESS_UNIT_FIELDS].sort());
      expect(names(data.actions.inputFields)).toEqual([...UPDATE_ACTION_MEMBERS].sort());
      expect(names(data.myActions.inputFields)).toEqual([...MY_UPDATE_ACTION_MEMBERS].sort());
      expect(names(data.draft.inputFields)).toEqual([...names(data.myDraft.inputFields), 'associates', 'stores'].sort());
      expect(names(data.mutations.fields)).toEqual(
        expect.arrayContaining([
          'createBusinessUnit',
          'createMyBusinessUnit',
          'updateBusinessUnit',
          'updateMyBusinessUnit',
          'deleteBusinessUnit',
          'updateCart',
          'updateMyCart',
          'updateProject',
        ]),
      );
    });
  });

  describe('malformed requests answer in the GraphQL error shape, never a 500', () => {
    const cases: Array<[string, unknown, string]> = [
      ['a syntax error', { query: '{ businessUnits { total ' }, 'GraphQLSyntaxError'],
      ['an unknown field', { query: '{ businessUnits { colour } }' }, 'GraphQLValidationError'],
      ['a missing argument', { query: 'mutation { updateBusinessUnit(key: "acme", actions: []) { id } }' }, 'GraphQLValidationError'],
      [
        'a variable of the wrong type',
        { query: 'query ($limit: Int) { businessUnits(limit: $limit) { total } }', variables: { limit: 'many' } },
        'GraphQLValidationError',
      ],
      ['a Long that is not a number', { query: 'mutation { deleteBusinessUnit(key: "acme", version: "one") { id } }' }, 'GraphQLValidationError'],
      ['a query that nests too deep', { query: `{ businessUnits { results { ${'parentUnit { '.repeat(14)}key${' }'.repeat(14)} } } }` }, 'QueryDepthExceeded'],
      [
        'hundreds of aliased full pages',
        { query: `{ ${Array.from({ length: 450 }, (_, index) => `p${index}: businessUnits(limit: 500) { results { key } }`).join(' ')} }` },
        'QueryComplexityExceeded',
      ],
      [
        'full pages through a variable and fragments',
        {
          query: `query ($n: Int) { ...A } fragment A on Query { ${'abcdefg'
            .split('')
            .map((alias) => `${alias}: businessUnits(limit: $n) { results { ...B } }`)
            .join(' ')} } fragment B on BusinessUnit { parentUnit { key } topLevelUnit { key } key }`,
          variables: { n: 500 },
        },
        'QueryComplexityExceeded',
      ],
      [
        // graphql-js runs a variable the request leaves out with the operation's default.
        'full pages through the default of a variable that is not sent',
        { query: `query ($l: Int = 500) { ${Array.from({ length: 25 }, (_, index) => `p${index}: businessUnits(limit: $l) { results { id } }`).join(' ')} }` },
        'QueryComplexityExceeded',
      ],
      [
        'fragments that double at every level (costed once each, so refused at once)',
        {
          query: `{ businessUnit(key: "acme") { ...F0 } } ${Array.from({ length: 40 }, (_, level) => `fragment F${level} on BusinessUnit { parentUnit { ...F${level + 1} } topLevelUnit { ...F${level + 1} } }`).join(' ')} fragment F40 on BusinessUnit { key }`,
        },
        'QueryComplexityExceeded',
      ],
      ['no query', { variables: {} }, 'InvalidInput'],
      ['a query that is not a string', { query: 42 }, 'InvalidInput'],
      ['variables that are not an object', { query: '{ businessUnits { total } }', variables: 'x' }, 'InvalidInput'],
      ['a batch', [{ query: '{ businessUnits { total } }' }], 'InvalidInput'],
    ];
    for (const [what, payload, code] of cases) {
      it(`refuses ${what} with 400 ${code}`, async () => {
        const response = await post(gateway, admin.token, payload);
        expect(response.statusCode).toBe(400);
        const body = response.json() as Json;
        expect(body.data).toBeUndefined();
        expect(body.errors).toEqual([expect.objectContaining({ message: expect.any(String), extensions: { code } })]);
      });
    }

    it('costs a variable with a default by the value sent, when one is sent', async () => {
      const response = await post(gateway, admin.token, {
        query: `query ($l: Int = 500) { ${Array.from({ length: 25 }, (_, index) => `p${index}: businessUnits(limit: $l) { results { id } }`).join(' ')} }`,
        variables: { l: 10 },
      });
      expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
      expect((response.json() as Json).errors).toBeUndefined();
    });

    it('runs a full page with nested references, which is well within the query cost limit', async () => {
      const response = await post(gateway, admin.token, {
        query: `query ($n: Int) { businessUnits(limit: $n) { results { ...B } } } fragment B on BusinessUnit { key parentUnit { key } ancestors { key } topLevelUnit { key } }`,
        variables: { n: 500 },
      });
      expect(response.statusCode).toBe(200);
      expect((response.json() as Json).errors).toBeUndefined();
    });

    it('gives the position of a syntax error', async () => {
      const body = (await post(gateway, admin.token, { query: '{\n  businessUnits {' })).json() as Json;
      expect(body.errors[0].locations).toEqual([{ line: 2, column: 18 }]);
    });

    it('answers JSON that does not parse like every endpoint (400 InvalidJsonInput)', async () => {
      const response = await gateway.app.inject({
        method: 'POST',
        url: `/${P}/graphql`,
        headers: { ...bearer(admin.token), 'content-type': 'application/json' },
        payload: '{"query": ',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ errors: [{ code: 'InvalidJsonInput' }] });
    });
  });

  describe('scopes', () => {
    it('asks for a token (401) and for one of the GraphQL scopes (403) before GraphQL runs', async () => {
      const anonymous = await gateway.app.inject({ method: 'POST', url: `/${P}/graphql`, payload: { query: '{ businessUnits { total } }' } });
      expect(anonymous.statusCode).toBe(401);
      const storesOnly = await post(gateway, await tokenFor(gateway, P, ['view_stores']), { query: '{ businessUnits { total } }' });
      expect(storesOnly.statusCode).toBe(403);
      expect(storesOnly.json()).toMatchObject({ errors: [{ code: 'insufficient_scope' }] });
    });

    it('checks the scope of each field: a cart scope cannot read business units', async () => {
      const orders = await apiClient(gateway, P, ['manage_orders']);
      const error = await orders.gqlError('{ businessUnits { total } }');
      expect(error).toMatchObject({ path: ['businessUnits'], extensions: { code: 'InsufficientScope', scope: 'view_business_units' } });
      const mutation = await (
        await apiClient(gateway, P, ['view_business_units'])
      ).gqlError('mutation { createBusinessUnit(draft: {key: "nope", name: "No", unitType: Company}) { id } }');
      expect(mutation.extensions).toMatchObject({ code: 'InsufficientScope', scope: 'manage_business_units' });
    });

    it('lets manage_project imply every scope and manage_business_units imply view_business_units', async () => {
      for (const scope of ['manage_project', 'manage_business_units', 'view_business_units']) {
        const data = await (await apiClient(gateway, P, [scope])).gql('{ businessUnit(key: "acme") { key } }');
        expect(data.businessUnit, scope).toEqual({ key: 'acme' });
      }
    });

    it('answers a field that needs a customer token with InsufficientScope for an API client', async () => {
      const my = await apiClient(gateway, P, ['manage_my_business_units']);
      const error = await my.gqlError('mutation { createMyBusinessUnit(draft: {key: "mine", name: "Mine", unitType: Company}) { id } }');
      expect(error.extensions.code).toBe('InsufficientScope');
    });
  });

  describe('errors of the service carry the REST error code', () => {
    it('ConcurrentModification with currentVersion', async () => {
      const error = await admin.gqlError('mutation { updateBusinessUnit(key: "acme", version: 7, actions: [{changeName: {name: "X"}}]) { id } }');
      expect(error).toMatchObject({
        message: expect.stringContaining('different version'),
        path: ['updateBusinessUnit'],
        extensions: { code: 'ConcurrentModification', currentVersion: 1, statusCode: 409 },
      });
    });

    it('ResourceNotFound', async () => {
      const error = await admin.gqlError('mutation { updateBusinessUnit(key: "missing", version: 1, actions: [{changeName: {name: "X"}}]) { id } }');
      expect(error.extensions).toMatchObject({ code: 'ResourceNotFound', statusCode: 404 });
    });

    it('InvalidInput with the field', async () => {
      const error = await admin.gqlError('mutation { createBusinessUnit(draft: {key: "x", name: "X", unitType: Company}) { id } }');
      expect(error.extensions).toMatchObject({ code: 'InvalidInput', field: 'key' });
    });

    it('DuplicateField for a key that is taken', async () => {
      const error = await admin.gqlError('mutation { createBusinessUnit(draft: {key: "acme", name: "Again", unitType: Company}) { id } }');
      expect(error.extensions).toMatchObject({ code: 'DuplicateField', field: 'key' });
    });

    it('exactly one member per action object, and exactly one of id and key', async () => {
      const two = await admin.gqlError(
        'mutation { updateBusinessUnit(key: "acme", version: 1, actions: [{changeName: {name: "X"}, setContactEmail: {contactEmail: "a@b.c"}}]) { id } }',
      );
      expect(two).toMatchObject({ message: expect.stringContaining('exactly one member'), extensions: { code: 'InvalidInput' } });
      const none = await admin.gqlError('mutation { updateBusinessUnit(key: "acme", version: 1, actions: [{}]) { id } }');
      expect(none.extensions.code).toBe('InvalidInput');
      const both = await admin.gqlError('{ businessUnit(id: "a", key: "acme") { id } }');
      expect(both.extensions.code).toBe('InvalidInput');
      const neither = await admin.gqlError('{ businessUnit { id } }');
      expect(neither.extensions.code).toBe('InvalidInput');
    });

    it('keeps the data of the fields that worked beside the errors of those that failed', async () => {
      const answer = await admin.graphql('{ ok: businessUnit(key: "acme") { key } bad: businessUnit(id: "a", key: "b") { key } }');
      expect(answer.status).toBe(200);
      expect(answer.data).toEqual({ ok: { key: 'acme' }, bad: null });
      expect(answer.errors).toEqual([expect.objectContaining({ path: ['bad'], extensions: expect.objectContaining({ code: 'InvalidInput' }) })]);
    });
  });

  describe('GraphiQL', () => {
    it('is served in development mode', async () => {
      const response = await gateway.app.inject({ method: 'GET', url: '/graphiql' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('GraphiQL');
      expect(response.body).toContain(JSON.stringify(P));
    });

    it('is not served in production mode', async () => {
      const production = await startTestGateway({ projects: [P], config: { mode: 'production' } });
      try {
        // Without the page, the path is just `GET /{projectKey}` for a project named "graphiql".
        const response = await production.app.inject({ method: 'GET', url: '/graphiql' });
        expect(response.statusCode).toBe(401);
        expect(response.body).not.toContain('GraphiQL');
      } finally {
        await production.close();
      }
    });
  });

  describe('over a socket', () => {
    it('answers a real HTTP request', async () => {
      const address = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
      const response = await fetch(`${address}/${P}/graphql`, {
        method: 'POST',
        headers: { ...bearer(admin.token), 'content-type': 'application/json', 'x-correlation-id': 'graphql-socket-test' },
        body: JSON.stringify({ query: 'query ($key: String) { businessUnit(key: $key) { key unitType topLevelUnit { key } } }', variables: { key: 'acme' } }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-correlation-id')).toBe('graphql-socket-test');
      expect(await response.json()).toEqual({ data: { businessUnit: { key: 'acme', unitType: 'Company', topLevelUnit: { key: 'acme' } } } });
    });
  });
});
