import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { apiClient, customerClient, lastMessageOf, type Client, type Json } from './support.js';

const P = 'bu-my';

const ME_UNIT = /* GraphQL */ `
  query ($key: String) {
    me {
      businessUnit(key: $key) {
        key
        name
        associates {
          roles
          customerRef {
            id
          }
        }
      }
    }
  }
`;
const ME_UNITS = /* GraphQL */ `
  {
    me {
      businessUnits(sort: ["key asc"]) {
        total
        exists
        results {
          key
        }
      }
    }
  }
`;
const UPDATE_MY = /* GraphQL */ `
  mutation ($key: String!, $version: Long!, $actions: [MyBusinessUnitUpdateAction!]!) {
    updateMyBusinessUnit(key: $key, version: $version, actions: $actions) {
      key
      version
      name
    }
  }
`;

/**
 * The My operations (§4.3) act for the token's customer: a customer who creates a unit becomes
 * its Admin; Admins change it through updateMyBusinessUnit; Buyers read it; outsiders see nothing.
 */
describe('My business units', () => {
  let gateway: TestGateway;
  let admin: Client;
  let adminCustomer: Client;
  let buyer: Client;
  let outsider: Client;
  let unit: Json;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await apiClient(gateway, P, ['manage_business_units', 'manage_project_settings', 'view_messages']);
    adminCustomer = await customerClient(gateway, P, ['manage_my_business_units']);
    buyer = await customerClient(gateway, P, ['manage_my_business_units']);
    outsider = await customerClient(gateway, P, ['manage_my_business_units']);

    const created = await adminCustomer.gql(
      'mutation { createMyBusinessUnit(draft: {key: "mine", name: "Mine", unitType: Company}) { id key version status associates { roles customerRef { id } } createdBy { customerRef { id } } } }',
    );
    unit = created.createMyBusinessUnit as Json;
    // Buyers are added by an API client: addAssociate is not a My action (§4.3).
    await admin.gql(
      `mutation { updateBusinessUnit(key: "mine", version: 1, actions: [{addAssociate: {associate: {roles: [Buyer], customer: {id: "${buyer.customerId}"}}}}]) { version } }`,
    );
    unit.version = 2;
  });
  afterAll(() => gateway.close());

  it('makes the creating customer the Admin, with the default status Active', async () => {
    expect(unit).toMatchObject({
      key: 'mine',
      status: 'Active',
      associates: [{ roles: ['Admin'], customerRef: { id: adminCustomer.customerId } }],
      createdBy: { customerRef: { id: adminCustomer.customerId } },
    });
    expect(await lastMessageOf(admin, unit.id as string)).toMatchObject({ type: 'BusinessUnitAssociateAdded' });
  });

  describe('reading', () => {
    it('Admin and Buyer read the unit through me; an outsider does not see it', async () => {
      for (const reader of [adminCustomer, buyer]) {
        const data = await reader.gql(ME_UNIT, { key: 'mine' });
        expect(data.me.businessUnit).toMatchObject({ key: 'mine', name: 'Mine' });
        expect((await reader.gql(ME_UNITS)).me.businessUnits).toEqual({ total: 1, exists: true, results: [{ key: 'mine' }] });
      }
      expect((await outsider.gql(ME_UNIT, { key: 'mine' })).me.businessUnit).toBeNull();
      expect((await outsider.gql(ME_UNITS)).me.businessUnits).toEqual({ total: 0, exists: false, results: [] });
    });

    it('shows an associate their own customer, and other customers only with view_customers', async () => {
      const query = '{ me { businessUnit(key: "mine") { associates { customerRef { id } customer { id } } } } }';
      const answer = await buyer.graphql(query);
      expect(answer.status).toBe(200);
      const associates = answer.data?.me.businessUnit.associates as Json[];
      expect(associates).toContainEqual({ customerRef: { id: buyer.customerId }, customer: { id: buyer.customerId } });
      expect(associates).toContainEqual({ customerRef: { id: adminCustomer.customerId }, customer: null });
      expect(answer.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'InsufficientScope', scope: 'view_customers' }) })]);

      const support = await apiClient(gateway, P, ['view_business_units', 'view_customers']);
      const all = await support.gql('{ businessUnit(key: "mine") { associates { customer { id email } } } }');
      expect(all.businessUnit.associates).toEqual([
        { customer: { id: adminCustomer.customerId, email: expect.stringContaining('@') } },
        { customer: { id: buyer.customerId, email: expect.stringContaining('@') } },
      ]);
    });

    /**
     * Units above the customer's own are shown by the same rule as `me.businessUnit`: only where
     * the customer is an associate (REST neither answers nor expands them). parentUnit is null,
     * ancestors keeps the visible ones, and topLevelUnit (non-null, §2.2) is an error; the *Ref
     * fields still name them. view_business_units shows every unit, as on Query.
     */
    it('shows units above the customer’s own only where the customer is their associate', async () => {
      const ceo = await customerClient(gateway, P, ['manage_my_business_units']);
      const shopper = await customerClient(gateway, P, ['manage_my_business_units']);
      const auditor = await customerClient(gateway, P, ['manage_my_business_units', 'view_business_units']);
      const associate = (client: Client, role: string) => ({ roles: [role], customer: { id: client.customerId } });
      await admin.ok(
        'POST',
        '/business-units',
        {
          key: 'holding',
          name: 'Holding',
          unitType: 'Company',
          contactEmail: 'ceo@holding.example',
          addresses: [{ country: 'DE', city: 'Berlin', streetName: 'Secret Str.' }],
          associates: [associate(ceo, 'Admin')],
        },
        201,
      );
      const shopAssociates = [associate(shopper, 'Buyer'), associate(ceo, 'Buyer'), associate(auditor, 'Buyer')];
      await admin.ok(
        'POST',
        '/business-units',
        { key: 'holding-shop', name: 'Shop', unitType: 'Division', parentUnit: { key: 'holding' }, associates: shopAssociates },
        201,
      );
      await admin.ok(
        'POST',
        '/business-units',
        { key: 'holding-shop-north', name: 'North', unitType: 'Division', parentUnit: { key: 'holding-shop' }, associates: [associate(shopper, 'Buyer')] },
        201,
      );

      // Not an associate of the Company: it does not exist for the shopper, directly or over REST expansion.
      expect((await shopper.gql('{ me { businessUnit(key: "holding") { key } } }')).me.businessUnit).toBeNull();
      expect((await shopper.rest('GET', '/me/business-units/key=holding')).status).toBe(404);
      expect((await shopper.ok('GET', '/me/business-units/key=holding-shop?expand=parentUnit')).parentUnit.obj).toBeUndefined();

      const shop = await shopper.gql(`{ me { businessUnit(key: "holding-shop") {
        parentUnitRef { key } topLevelUnitRef { key }
        parentUnit { name contactEmail addresses { streetName } associates { roles customerRef { id } } }
        ancestors { key }
      } } }`);
      expect(shop.me.businessUnit).toEqual({ parentUnitRef: { key: 'holding' }, topLevelUnitRef: { key: 'holding' }, parentUnit: null, ancestors: [] });

      const north = await shopper.gql('{ me { businessUnit(key: "holding-shop-north") { parentUnit { key } ancestors { key } } } }');
      expect(north.me.businessUnit).toEqual({ parentUnit: { key: 'holding-shop' }, ancestors: [{ key: 'holding-shop' }] });

      const top = await shopper.graphql('{ me { businessUnit(key: "holding-shop") { key topLevelUnit { name } } } }');
      expect(top.data?.me.businessUnit).toBeNull();
      expect(top.errors).toEqual([
        expect.objectContaining({
          path: ['me', 'businessUnit', 'topLevelUnit'],
          extensions: expect.objectContaining({ code: 'InsufficientScope', scope: 'view_business_units' }),
        }),
      ]);

      // An associate of the Company, and a customer token with view_business_units, see it.
      const everything = '{ me { businessUnit(key: "holding-shop") { parentUnit { contactEmail } ancestors { key } topLevelUnit { key } } } }';
      for (const reader of [ceo, auditor]) {
        expect((await reader.gql(everything)).me.businessUnit).toEqual({
          parentUnit: { contactEmail: 'ceo@holding.example' },
          ancestors: [{ key: 'holding' }],
          topLevelUnit: { key: 'holding' },
        });
      }
    });

    it('needs manage_my_business_units and a customer token', async () => {
      const ordersOnly = await customerClient(gateway, P, ['manage_my_orders']);
      expect((await ordersOnly.gqlError(ME_UNITS)).extensions).toMatchObject({ code: 'InsufficientScope', scope: 'manage_my_business_units' });
      const client = await apiClient(gateway, P, ['manage_my_business_units']);
      expect((await client.graphql(ME_UNITS)).errors?.[0]?.extensions.code).toBe('InsufficientScope');
    });
  });

  describe('updating', () => {
    it('lets the Admin update, with the message of the action', async () => {
      const data = await adminCustomer.gql(UPDATE_MY, { key: 'mine', version: unit.version, actions: [{ changeName: { name: 'Mine Ltd' } }] });
      expect(data.updateMyBusinessUnit).toEqual({ key: 'mine', version: unit.version + 1, name: 'Mine Ltd' });
      unit.version += 1;
      expect(await lastMessageOf(admin, unit.id as string)).toMatchObject({
        type: 'BusinessUnitNameChanged',
        name: 'Mine Ltd',
        createdBy: { customer: { id: adminCustomer.customerId } },
      });
    });

    it('refuses a Buyer with 403-style AssociateMissingPermission, and an outsider with ResourceNotFound', async () => {
      const asBuyer = await buyer.gqlError(UPDATE_MY, { key: 'mine', version: unit.version, actions: [{ changeName: { name: 'Hijacked' } }] });
      expect(asBuyer.extensions).toMatchObject({ code: 'AssociateMissingPermission', statusCode: 403, permissions: ['UpdateBusinessUnitDetails'] });
      const asOutsider = await outsider.gqlError(UPDATE_MY, { key: 'mine', version: unit.version, actions: [{ changeName: { name: 'Hijacked' } }] });
      expect(asOutsider.extensions).toMatchObject({ code: 'ResourceNotFound' });
      // Even with a wrong version the outsider learns nothing more.
      const stale = await outsider.gqlError(UPDATE_MY, { key: 'mine', version: 99, actions: [{ changeName: { name: 'Hijacked' } }] });
      expect(stale.extensions.code).toBe('ResourceNotFound');
    });

    it('offers only the 18 My actions', async () => {
      const answer = await adminCustomer.graphql(UPDATE_MY, { key: 'mine', version: unit.version, actions: [{ addStore: { store: { key: 'x' } } }] });
      expect(answer.status).toBe(400);
      expect(answer.errors?.[0]?.extensions.code).toBe('GraphQLValidationError');
      const rest = await adminCustomer.rest('POST', '/me/business-units/key=mine', {
        version: unit.version,
        actions: [{ action: 'changeStatus', status: 'Inactive' }],
      });
      expect(rest.status).toBe(400);
      expect(rest.body.errors[0]).toMatchObject({ code: 'InvalidInput', action: 'changeStatus' });
    });

    it('lets an Admin change an associate, e.g. promote the Buyer', async () => {
      const data = await adminCustomer.gql(UPDATE_MY, {
        key: 'mine',
        version: unit.version,
        actions: [{ changeAssociate: { associate: { roles: ['Buyer', 'Admin'], customer: { id: buyer.customerId } } } }],
      });
      unit.version = data.updateMyBusinessUnit.version as number;
      const promoted = await buyer.gql(UPDATE_MY, { key: 'mine', version: unit.version, actions: [{ setContactEmail: { contactEmail: 'me@mine.example' } }] });
      unit.version = promoted.updateMyBusinessUnit.version as number;
      await adminCustomer.gql(UPDATE_MY, {
        key: 'mine',
        version: unit.version,
        actions: [{ changeAssociate: { associate: { roles: ['Buyer'], customer: { id: buyer.customerId } } } }],
      });
      unit.version += 1;
    });
  });

  describe('creating', () => {
    it('creates a Division only below a unit the customer administers', async () => {
      const division = await adminCustomer.gql(
        'mutation { createMyBusinessUnit(draft: {key: "mine-a", name: "A", unitType: Division, parentUnit: {key: "mine"}}) { key topLevelUnit { key } associates { roles } } }',
      );
      expect(division.createMyBusinessUnit).toEqual({ key: 'mine-a', topLevelUnit: { key: 'mine' }, associates: [{ roles: ['Admin'] }] });
      const asBuyer = await buyer.gqlError(
        'mutation { createMyBusinessUnit(draft: {key: "mine-b", name: "B", unitType: Division, parentUnit: {key: "mine"}}) { key } }',
      );
      expect(asBuyer.extensions.code).toBe('AssociateMissingPermission');
    });

    it('moves a unit only below a unit the customer administers', async () => {
      const other = await outsider.gql('mutation { createMyBusinessUnit(draft: {key: "theirs", name: "Theirs", unitType: Company}) { key } }');
      expect(other.createMyBusinessUnit).toEqual({ key: 'theirs' });
      const refused = await adminCustomer.gqlError(UPDATE_MY, {
        key: 'mine-a',
        version: 1,
        actions: [{ changeParentUnit: { parentUnit: { key: 'theirs' } } }],
      });
      expect(refused.extensions.code).toBe('AssociateMissingPermission');
    });

    it('gives My-created units the project setting myBusinessUnitStatusOnCreation (REST and GraphQL project action)', async () => {
      const project = await admin.ok('GET', '');
      const changed = await admin.ok('POST', '', {
        version: project.version,
        actions: [{ action: 'changeMyBusinessUnitStatusOnCreation', status: 'Inactive' }],
      });
      expect(changed.businessUnits).toEqual({ myBusinessUnitStatusOnCreation: 'Inactive' });
      const inactive = await adminCustomer.gql('mutation { createMyBusinessUnit(draft: {key: "mine-2", name: "Two", unitType: Company}) { status } }');
      expect(inactive.createMyBusinessUnit).toEqual({ status: 'Inactive' });
      // API clients' units are Active regardless.
      const clientUnit = await admin.gql('mutation { createBusinessUnit(draft: {key: "clients", name: "C", unitType: Company}) { status } }');
      expect(clientUnit.createBusinessUnit).toEqual({ status: 'Active' });

      const viaGraphql = await admin.gql(
        `mutation { updateProject(version: ${changed.version as number}, actions: [{changeMyBusinessUnitStatusOnCreation: {status: Active}}]) { version businessUnits { myBusinessUnitStatusOnCreation } } }`,
      );
      expect(viaGraphql.updateProject).toEqual({ version: (changed.version as number) + 1, businessUnits: { myBusinessUnitStatusOnCreation: 'Active' } });
      const active = await adminCustomer.gql('mutation { createMyBusinessUnit(draft: {key: "mine-3", name: "Three", unitType: Company}) { status } }');
      expect(active.createMyBusinessUnit).toEqual({ status: 'Active' });

      const invalid = await admin.rest('POST', '', {
        version: (changed.version as number) + 1,
        actions: [{ action: 'changeMyBusinessUnitStatusOnCreation', status: 'Sleeping' }],
      });
      expect(invalid.status).toBe(400);
    });

    it('uses the setting an earlier mutation of the same document committed, not the one the request arrived with', async () => {
      const settingsAndUnits = await customerClient(gateway, P, ['manage_my_business_units', 'manage_project_settings']);
      const document = (version: number, status: string, key: string) => `mutation {
        updateProject(version: ${version}, actions: [{ changeMyBusinessUnitStatusOnCreation: { status: ${status} } }]) { version }
        createMyBusinessUnit(draft: { key: "${key}", name: "Same document", unitType: Company }) { status }
      }`;
      const before = (await admin.gql('{ project { version businessUnits { myBusinessUnitStatusOnCreation } } }')).project as Json;
      expect(before.businessUnits.myBusinessUnitStatusOnCreation).toBe('Active');
      const inactive = await settingsAndUnits.gql(document(before.version as number, 'Inactive', 'same-doc-1'));
      expect(inactive.createMyBusinessUnit).toEqual({ status: 'Inactive' });
      const active = await settingsAndUnits.gql(document(inactive.updateProject.version as number, 'Active', 'same-doc-2'));
      expect(active.createMyBusinessUnit).toEqual({ status: 'Active' });
    });
  });

  describe('REST /{projectKey}/me/business-units', () => {
    it('lists, reads, creates and updates for the token customer', async () => {
      const listed = await buyer.ok('GET', '/me/business-units');
      expect(listed.results.map((result: Json) => result.key)).toEqual(['mine']);
      expect((await buyer.ok('GET', `/me/business-units/${unit.id as string}`)).key).toBe('mine');
      expect((await outsider.rest('GET', '/me/business-units/key=mine')).status).toBe(404);

      const created = await buyer.ok('POST', '/me/business-units', { key: 'buyers-own', name: 'Own', unitType: 'Company' }, 201);
      expect(created.associates).toEqual([
        {
          roles: ['Admin'],
          associateRoleAssignments: [{ associateRole: { typeId: 'associate-role', key: 'Admin' }, inheritance: 'Disabled' }],
          customer: { typeId: 'customer', id: buyer.customerId },
        },
      ]);
      const updated = await buyer.ok('POST', '/me/business-units/key=buyers-own', { version: 1, actions: [{ action: 'changeName', name: 'Own Ltd' }] });
      expect(updated).toMatchObject({ version: 2, name: 'Own Ltd' });

      const current = await buyer.ok('GET', '/me/business-units/key=mine');
      const refused = await buyer.rest('POST', '/me/business-units/key=mine', { version: current.version, actions: [{ action: 'changeName', name: 'X' }] });
      expect(refused.status).toBe(403);
      expect(refused.body.errors[0].code).toBe('AssociateMissingPermission');
      expect(
        (await outsider.rest('POST', '/me/business-units/key=mine', { version: current.version, actions: [{ action: 'changeName', name: 'X' }] })).status,
      ).toBe(404);
    });

    it('refuses stores and associates in a MyBusinessUnitDraft, and API-client tokens', async () => {
      const withAssociates = await buyer.rest('POST', '/me/business-units', {
        key: 'sneaky',
        name: 'S',
        unitType: 'Company',
        associates: [{ roles: ['Admin'], customer: { id: outsider.customerId } }],
      });
      expect(withAssociates.status).toBe(400);
      const client = await apiClient(gateway, P, ['manage_my_business_units']);
      expect((await client.rest('GET', '/me/business-units')).status).toBe(403);
    });
  });
});
