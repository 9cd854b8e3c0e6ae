/**
 * What GraphQL tooling needs of the endpoint:
 * - the standard introspection query (graphql-js `getIntrospectionQuery()`, which GraphiQL, Apollo
 *   and graphql-codegen send) is answered, although its `ofType` chain is deeper than the depth
 *   limit of data queries; introspection has bounds of its own, so nesting its lists is refused;
 * - where §2.2/§4.3 do not fix a name, types, scalars, enums and inputs carry the official
 *   schema's names, so documents generated against it validate here: `MyBusinessUnitUpdateAction`
 *   members are `AddMyBusinessUnitAddress`, …; `Address.country` is a `Country`,
 *   `Store.name(locale:)` takes a `Locale`, `Cart.cartState` is a `CartState`.
 */
import { buildClientSchema, getIntrospectionQuery, printSchema, type IntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { apiClient, customerClient, type Client, type Json } from '../business-units/support.js';

const P = 'graphql-introspection';

describe('GraphQL introspection and the official schema’s names', () => {
  let gateway: TestGateway;
  let admin: Client;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await apiClient(gateway, P, ['manage_business_units', 'manage_stores', 'manage_orders']);
  });
  afterAll(() => gateway?.close());

  async function introspect(): Promise<IntrospectionQuery> {
    return (await admin.gql(getIntrospectionQuery())) as unknown as IntrospectionQuery;
  }

  describe('introspection', () => {
    it('answers the standard introspection query, and its answer builds a client schema', async () => {
      const schema = buildClientSchema(await introspect());
      expect(schema.getQueryType()?.name).toBe('Query');
      expect(printSchema(schema)).toContain('type BusinessUnit {');
    });

    it('answers it with every option graphql-js offers (descriptions, specifiedByUrl, oneOf, …)', async () => {
      const query = getIntrospectionQuery({
        descriptions: true,
        specifiedByUrl: true,
        directiveIsRepeatable: true,
        schemaDescription: true,
        inputValueDeprecation: true,
        oneOf: true,
      });
      const data = await admin.gql(query);
      expect(() => buildClientSchema(data as unknown as IntrospectionQuery)).not.toThrow();
    });

    it('refuses an introspection document that nests its lists (types of fields of types …) with 400 QueryComplexityExceeded', async () => {
      const nested = `{ __schema { types { fields { type { fields { type { fields { type { fields { name } } } } } } } } } }`;
      const answer = await admin.graphql(nested);
      expect(answer.status).toBe(400);
      expect(answer.errors).toEqual([expect.objectContaining({ extensions: { code: 'QueryComplexityExceeded' } })]);
    });

    it('refuses many aliased copies of the standard query', async () => {
      const fields = getIntrospectionQuery()
        .replace(/^\s*query IntrospectionQuery \{\s*__schema/, '')
        .trim();
      const body = fields.slice(0, fields.indexOf('fragment FullType'));
      const copies = Array.from({ length: 6 }, (_, i) => `s${i}: __schema ${body.trim().replace(/\}$/, '')}`).join('\n');
      const fragments = fields.slice(fields.indexOf('fragment FullType'));
      const answer = await admin.graphql(`query { ${copies} }\n${fragments}`);
      expect(answer.status, JSON.stringify(answer.errors)).toBe(400);
      expect(answer.errors?.[0]?.extensions).toEqual({ code: 'QueryComplexityExceeded' });
    });

    it('refuses an ofType chain deeper than introspection needs with 400 QueryDepthExceeded', async () => {
      const chain = `${'ofType { '.repeat(30)}name${' }'.repeat(30)}`;
      const answer = await admin.graphql(`{ __type(name: "BusinessUnit") { fields { type { ${chain} } } } }`);
      expect(answer.status).toBe(400);
      expect(answer.errors?.[0]?.extensions).toEqual({ code: 'QueryDepthExceeded' });
    });

    it('keeps the depth limit of data queries, also when introspection comes along', async () => {
      const deep = `businessUnits { results { ${'parentUnit { '.repeat(14)}key${' }'.repeat(14)} } }`;
      for (const query of [`{ ${deep} }`, `{ __schema { queryType { name } } ${deep} }`]) {
        const answer = await admin.graphql(query);
        expect(answer.status).toBe(400);
        expect(answer.errors?.[0]?.extensions).toEqual({ code: 'QueryDepthExceeded' });
      }
    });
  });

  describe('names of the official schema', () => {
    it('names the input types of MyBusinessUnitUpdateAction as the official schema does', async () => {
      const data = await admin.gql(`{ __type(name: "MyBusinessUnitUpdateAction") { inputFields { name type { name } } } }`);
      const members = Object.fromEntries((data.__type.inputFields as Json[]).map((field) => [field.name, field.type.name]));
      expect(members).toMatchObject({
        addAddress: 'AddMyBusinessUnitAddress',
        changeName: 'ChangeMyBusinessUnitName',
        removeAssociate: 'RemoveMyBusinessUnitAssociate',
        setDefaultShippingAddress: 'SetMyBusinessUnitDefaultShippingAddress',
      });
      for (const [member, type] of Object.entries(members)) expect(type, member).toMatch(/^[A-Z][a-z]+MyBusinessUnit/);
    });

    it('types countries, locales and cart states with the official scalars and enum', async () => {
      const schema = buildClientSchema(await introspect());
      const fieldType = (type: string, field: string) => {
        const named = schema.getType(type) as unknown as { getFields(): Record<string, { type: unknown; args?: Array<{ name: string; type: unknown }> }> };
        return named.getFields()[field];
      };
      expect(String(fieldType('Address', 'country')?.type)).toBe('Country!');
      expect(String(fieldType('AddressInput', 'country')?.type)).toBe('Country!');
      expect(String(fieldType('LocalizedString', 'locale')?.type)).toBe('Locale!');
      expect(String(fieldType('Store', 'languages')?.type)).toBe('[Locale!]');
      expect(String(fieldType('Store', 'name')?.args?.find((arg) => arg.name === 'locale')?.type)).toBe('Locale');
      expect(String(fieldType('Cart', 'cartState')?.type)).toBe('CartState!');
      expect(String(fieldType('Cart', 'storeRef')?.type)).toBe('KeyReference');
      expect(String(fieldType('Cart', 'businessUnitRef')?.type)).toBe('KeyReference');
      // §2.2 fixes these; the official schema differs and the spec wins.
      expect(String(fieldType('Cart', 'businessUnit')?.type)).toBe('KeyReference');
      expect(String(fieldType('BusinessUnit', 'status')?.type)).toBe('BusinessUnitStatus!');
    });

    it('runs documents whose variables use the official types (as codegen writes them)', async () => {
      const created = await admin.gql(
        /* GraphQL */ `
          mutation Create($draft: BusinessUnitDraft!, $country: Country!, $version: Long!) {
            createBusinessUnit(draft: $draft) {
              key
              version
              addresses {
                country
              }
            }
            again: updateBusinessUnit(key: "codegen", version: $version, actions: [{ addAddress: { address: { country: $country } } }]) {
              addresses {
                country
              }
            }
          }
        `,
        { draft: { key: 'codegen', name: 'Codegen GmbH', unitType: 'Company', addresses: [{ country: 'DE' }] }, country: 'AT', version: 1 },
      );
      expect(created.createBusinessUnit).toEqual({ key: 'codegen', version: 1, addresses: [{ country: 'DE' }] });
      expect(created.again.addresses).toEqual([{ country: 'DE' }, { country: 'AT' }]);

      const buyer = await customerClient(gateway, P, ['manage_my_business_units']);
      const mine = await buyer.gql(`mutation { createMyBusinessUnit(draft: {key: "mine", name: "Mine", unitType: Company}) { version } }`);
      const renamed = await buyer.gql(
        /* GraphQL */ `
          mutation Rename($version: Long!, $change: ChangeMyBusinessUnitName!, $address: AddMyBusinessUnitAddress!) {
            updateMyBusinessUnit(key: "mine", version: $version, actions: [{ changeName: $change }, { addAddress: $address }]) {
              name
              addresses {
                country
              }
            }
          }
        `,
        { version: mine.createMyBusinessUnit.version, change: { name: 'Renamed' }, address: { address: { country: 'CH' } } },
      );
      expect(renamed.updateMyBusinessUnit).toEqual({ name: 'Renamed', addresses: [{ country: 'CH' }] });
    });

    it('answers a cart’s store as the Store with view_stores, its storeRef always, and cartState as the enum', async () => {
      await admin.ok('POST', '/stores', { key: 'berlin', name: { en: 'Berlin' } }, 201);
      const cart = await admin.ok('POST', '/carts', { currency: 'EUR', store: { key: 'berlin', typeId: 'store' } }, 201);
      const query = /* GraphQL */ `
        mutation ($id: String!, $version: Long!, $locale: Locale) {
          updateCart(id: $id, version: $version, actions: []) {
            version
            cartState
            storeRef {
              key
            }
            store {
              key
              name(locale: $locale)
            }
          }
        }
      `;
      const data = await admin.gql(query, { id: cart.id, version: cart.version, locale: 'en' });
      expect(data.updateCart).toEqual({
        version: expect.any(Number),
        cartState: 'Active',
        storeRef: { key: 'berlin' },
        store: { key: 'berlin', name: 'Berlin' },
      });
      const withoutStores = await apiClient(gateway, P, ['manage_orders']);
      const hidden = await withoutStores.gql(query, { id: cart.id, version: data.updateCart.version, locale: 'en' });
      expect(hidden.updateCart).toMatchObject({ storeRef: { key: 'berlin' }, store: null });
    });
  });
});
