/**
 * Customers as the reference describes them (types/customer/Customer.raml, CustomerDraft,
 * CustomerUpdateAction and the Customer* message payloads): required fields in every answer and
 * in CustomerCreated, e-mails without syntax checks, draft addresses with their index fields, the
 * address, name and store actions with their messages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { address, callerWith, type Caller, type Json } from '../carts/commerce.js';

const P = 'customer-reference-shape';

describe('customers in the reference shape', () => {
  let gateway: TestGateway;
  let admin: Caller;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_project']);
    await admin.ok(`/${P}/stores`, { key: 'berlin' }, 201);
    await admin.ok(`/${P}/stores`, { key: 'paris' }, 201);
  });
  afterAll(() => gateway.close());

  const messagesOf = async (id: string): Promise<Json[]> => {
    const where = encodeURIComponent(`resource(id = "${id}")`);
    return (await admin.read(`/${P}/messages?where=${where}&sort=sequenceNumber%20asc&limit=100`)).results as Json[];
  };
  const create = async (draft: Json): Promise<Json> => (await admin.ok(`/${P}/customers`, { password: 'pw', ...draft }, 201)).customer as Json;
  const REQUIRED = {
    addresses: expect.any(Array),
    shippingAddressIds: expect.any(Array),
    billingAddressIds: expect.any(Array),
    customerGroupAssignments: [],
    stores: expect.any(Array),
    isEmailVerified: false,
    authenticationMode: 'Password',
  };

  it('answers every required field, in responses and in CustomerCreated.customer', async () => {
    const customer = await create({ email: 'shape@example.com' });
    expect(customer).toMatchObject({ ...REQUIRED, addresses: [], shippingAddressIds: [], billingAddressIds: [], stores: [] });
    expect(await admin.read(`/${P}/customers/${customer.id}`)).toMatchObject(REQUIRED);
    const [created] = await messagesOf(customer.id);
    expect(created).toMatchObject({ type: 'CustomerCreated', customer: REQUIRED });
  });

  it('accepts any string as e-mail (the platform checks no syntax); uniqueness still holds', async () => {
    const customer = await create({ email: 'not an e-mail at all' });
    expect(customer.email).toBe('not an e-mail at all');
    const again = await admin.post(`/${P}/customers`, { email: 'NOT AN E-MAIL AT ALL', password: 'pw' });
    expect(again.body.errors[0]).toMatchObject({ code: 'DuplicateField', field: 'email' });
    const changed = await admin.update(`/${P}/customers/${customer.id}`, 1, [{ action: 'changeEmail', email: 'still-no-at-sign' }]);
    expect(changed.email).toBe('still-no-at-sign');
  });

  it('keeps draft addresses with ids and resolves the index fields to them', async () => {
    const customer = await create({
      email: 'addresses@example.com',
      addresses: [address('DE', { key: 'home' }), address('FR', { key: 'office' }), address('AT')],
      defaultShippingAddress: 0,
      shippingAddresses: [2],
      defaultBillingAddress: 1,
      billingAddresses: [1],
    });
    const ids = (customer.addresses as Json[]).map((entry) => entry.id as string);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(3);
    expect(customer).toMatchObject({
      addresses: [{ key: 'home', country: 'DE' }, { key: 'office', country: 'FR' }, { country: 'AT' }],
      defaultShippingAddressId: ids[0],
      shippingAddressIds: [ids[2], ids[0]],
      defaultBillingAddressId: ids[1],
      billingAddressIds: [ids[1]],
    });
    const wrong = await admin.post(`/${P}/customers`, { email: 'bad-index@example.com', password: 'pw', addresses: [address()], defaultShippingAddress: 1 });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors[0]).toMatchObject({ code: 'InvalidInput', field: 'defaultShippingAddress' });
  });

  it('address actions change the lists and emit the reference messages', async () => {
    const customer = await create({ email: 'address-actions@example.com' });
    const url = `/${P}/customers/${customer.id}`;
    let doc = await admin.update(url, 1, [{ action: 'addAddress', address: address('DE', { key: 'home' }) }]);
    const home = (doc.addresses as Json[])[0] as Json;
    doc = await admin.update(url, doc.version as number, [
      { action: 'addAddress', address: address('FR', { key: 'office' }) },
      { action: 'setDefaultShippingAddress', addressKey: 'home' },
      { action: 'addBillingAddressId', addressKey: 'office' },
      { action: 'changeAddress', addressKey: 'home', address: address('DE', { key: 'home', city: 'Potsdam' }) },
    ]);
    const office = (doc.addresses as Json[])[1] as Json;
    expect(doc).toMatchObject({
      defaultShippingAddressId: home.id,
      shippingAddressIds: [home.id],
      billingAddressIds: [office.id],
      addresses: [{ id: home.id, city: 'Potsdam' }, { id: office.id }],
    });
    doc = await admin.update(url, doc.version as number, [
      { action: 'removeShippingAddressId', addressId: home.id },
      { action: 'setDefaultBillingAddress', addressId: office.id },
      { action: 'removeAddress', addressKey: 'office' },
    ]);
    expect(doc).toMatchObject({ addresses: [{ id: home.id }], shippingAddressIds: [], billingAddressIds: [] });
    expect(doc.defaultShippingAddressId).toBeUndefined();
    expect(doc.defaultBillingAddressId).toBeUndefined();

    const types = (await messagesOf(customer.id)).map((message) => message.type);
    expect(types).toEqual([
      'CustomerCreated',
      'CustomerAddressAdded',
      'CustomerAddressAdded',
      'CustomerDefaultShippingAddressSet',
      'CustomerBillingAddressAdded',
      'CustomerAddressChanged',
      'CustomerShippingAddressRemoved',
      'CustomerDefaultBillingAddressSet',
      'CustomerAddressRemoved',
    ]);
    const messages = await messagesOf(customer.id);
    expect(messages[5]).toMatchObject({ address: { id: home.id, city: 'Potsdam' }, addressRoles: ['Shipping'] });
    expect(messages[8]).toMatchObject({ address: { id: office.id }, addressRoles: ['Billing'] });
  });

  it('an address the customer does not have is InvalidOperation', async () => {
    const customer = await create({ email: 'no-address@example.com' });
    for (const action of [
      { action: 'removeAddress', addressId: 'nope' },
      { action: 'changeAddress', addressKey: 'nope', address: address() },
      { action: 'setDefaultBillingAddress', addressKey: 'nope' },
      { action: 'addShippingAddressId', addressId: 'nope' },
    ]) {
      const answer = await admin.post(`/${P}/customers/${customer.id}`, { version: 1, actions: [action] });
      expect({ status: answer.status, code: answer.body.errors[0].code }).toEqual({ status: 400, code: 'InvalidOperation' });
    }
  });

  it('set actions for names, numbers and personal data, with the reference messages', async () => {
    const customer = await create({ email: 'setters@example.com' });
    const url = `/${P}/customers/${customer.id}`;
    const doc = await admin.update(url, 1, [
      { action: 'setMiddleName', middleName: 'M' },
      { action: 'setTitle', title: 'Dr.' },
      { action: 'setSalutation', salutation: 'Dear' },
      { action: 'setCompanyName', companyName: 'ACME' },
      { action: 'setVatId', vatId: 'DE123' },
      { action: 'setExternalId', externalId: 'crm-1' },
      { action: 'setLocale', locale: 'de-DE' },
      { action: 'setDateOfBirth', dateOfBirth: '1990-12-31' },
      { action: 'setCustomerNumber', customerNumber: 'C-1' },
      { action: 'changeEmail', email: 'setters-2@example.com' },
    ]);
    expect(doc).toMatchObject({
      middleName: 'M',
      title: 'Dr.',
      salutation: 'Dear',
      companyName: 'ACME',
      vatId: 'DE123',
      externalId: 'crm-1',
      locale: 'de-DE',
      dateOfBirth: '1990-12-31',
      customerNumber: 'C-1',
    });
    const messages = (await messagesOf(customer.id)).slice(1);
    expect(messages.map((message) => message.type)).toEqual([
      'CustomerTitleSet',
      'CustomerCompanyNameSet',
      'CustomerExternalIdSet',
      'CustomerDateOfBirthSet',
      'CustomerEmailChanged',
    ]);
    expect(messages[4]).toMatchObject({ email: 'setters-2@example.com', oldEmail: 'setters@example.com' });

    // CustomerSetCustomerNumberAction: once set, it cannot be changed.
    const again = await admin.post(url, { version: doc.version, actions: [{ action: 'setCustomerNumber', customerNumber: 'C-2' }] });
    expect({ status: again.status, code: again.body.errors[0].code }).toEqual({ status: 400, code: 'InvalidOperation' });
    const badDate = await admin.post(url, { version: doc.version, actions: [{ action: 'setDateOfBirth', dateOfBirth: '1990-02-30' }] });
    expect(badDate.body.errors[0]).toMatchObject({ code: 'InvalidInput', field: 'dateOfBirth' });
  });

  it('store actions set the stores and emit CustomerStoresSet; in-store routes see customers of each store', async () => {
    const customer = await create({ email: 'stores@example.com', stores: [{ typeId: 'store', key: 'berlin' }] });
    expect(customer.stores).toEqual([{ typeId: 'store', key: 'berlin' }]);
    const url = `/${P}/customers/${customer.id}`;
    let doc = await admin.update(url, 1, [{ action: 'addStore', store: { key: 'paris' } }]);
    expect(doc.stores).toEqual([
      { typeId: 'store', key: 'berlin' },
      { typeId: 'store', key: 'paris' },
    ]);
    expect((await admin.get(`/${P}/in-store/key=paris/customers/${customer.id}`)).status).toBe(200);
    doc = await admin.update(url, doc.version as number, [{ action: 'removeStore', store: { key: 'berlin' } }]);
    expect((await admin.get(`/${P}/in-store/key=berlin/customers/${customer.id}`)).status).toBe(404);
    doc = await admin.update(url, doc.version as number, [{ action: 'setStores', stores: [] }]);
    expect(doc.stores).toEqual([]);
    const storesSet = (await messagesOf(customer.id)).filter((message) => message.type === 'CustomerStoresSet');
    expect(storesSet.at(-1)).toMatchObject({ stores: [], oldStores: [{ typeId: 'store', key: 'paris' }] });
    expect(storesSet).toHaveLength(3);
    const unknown = await admin.post(url, { version: doc.version, actions: [{ action: 'addStore', store: { key: 'nowhere' } }] });
    expect(unknown.body.errors[0].code).toBe('ReferencedResourceNotFound');
  });

  it('CustomerDeleted carries the e-mail', async () => {
    const customer = await create({ email: 'deleted@example.com' });
    expect((await admin.delete(`/${P}/customers/${customer.id}?version=1`)).status).toBe(200);
    const deleted = (await messagesOf(customer.id)).find((message) => message.type === 'CustomerDeleted');
    expect(deleted).toMatchObject({ email: 'deleted@example.com' });
  });
});
