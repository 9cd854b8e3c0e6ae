/**
 * Issues 28/29: the unique fields of customer groups (`name`), shipping methods (`name`),
 * inventory entries (`sku` with the supply channel) and payments (`interfaceId` with the
 * paymentInterface) are claimed by the store in the write itself, no longer searched for before
 * it: of two racing creates exactly one succeeds, an update releases the old value and claims the
 * new one, and a delete releases it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, eur, type Answer, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'claimed-fields';

function expectDuplicate(answer: Answer, field: string, duplicateValue: unknown): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  expect(answer.body.errors).toEqual([
    { code: 'DuplicateField', message: `A duplicate value ${JSON.stringify(duplicateValue)} exists for field '${field}'.`, field, duplicateValue },
  ]);
}

/** A resource with one unique value: its path, a draft holding `value`, and an action changing it. */
interface Claiming {
  path: string;
  field: string;
  draft: (value: string) => Json;
  change: (value: string) => Json;
}

const renamed: Claiming[] = [
  { path: 'customer-groups', field: 'name', draft: (name) => ({ groupName: name }), change: (name) => ({ action: 'changeName', name }) },
  {
    path: 'shipping-methods',
    field: 'name',
    draft: (name) => ({ name, taxCategory: { typeId: 'tax-category', key: 'standard' }, zoneRates: [], isDefault: false }),
    change: (name) => ({ action: 'changeName', name }),
  },
];

const inventory = (sku: string, channel?: string): Json => ({ sku, quantityOnStock: 1, ...(channel === undefined ? {} : { supplyChannel: { key: channel } }) });
const payment = (interfaceId: string | undefined, paymentInterface = 'psp'): Json => ({
  amountPlanned: eur(100),
  ...(interfaceId === undefined ? {} : { interfaceId }),
  paymentMethodInfo: { paymentInterface },
});

describe('Unique fields claimed by the store', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, [
      'manage_customer_groups',
      'manage_shipping_methods',
      'manage_products',
      'manage_payments',
      'manage_tax_categories',
      'manage_channels',
    ]);
    await admin.ok(`/${P}/tax-categories`, { key: 'standard', name: 'Standard', rates: [] }, 201);
    await admin.ok(`/${P}/channels`, { key: 'warehouse', roles: ['InventorySupply'] }, 201);
  }, 180_000);
  afterAll(async () => {
    await gateway?.close();
  });

  const remove = async (path: string, resource: Json): Promise<void> => {
    const deleted = await admin.delete(`/${P}/${path}/${resource.id}?version=${resource.version}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
  };

  async function expectOneOfRacingCreates(path: string, draft: Json, field: string, duplicateValue: unknown): Promise<void> {
    for (let round = 0; round < 3; round += 1) {
      const answers = await Promise.all([admin.post(`/${P}/${path}`, draft), admin.post(`/${P}/${path}`, draft)]);
      expect(answers.map(({ status }) => status).sort()).toEqual([201, 400]);
      expectDuplicate(answers.find(({ status }) => status === 400) as Answer, field, duplicateValue);
      await remove(path, (answers.find(({ status }) => status === 201) as Answer).body);
    }
  }

  describe.each(renamed)('$path $field', ({ path, field, draft, change }) => {
    it('lets exactly one of two racing creates of one value succeed', async () => {
      await expectOneOfRacingCreates(path, draft(`${path}-race`), field, `${path}-race`);
    });

    it('releases the old value and claims the new one on a change, and refuses taking one held', async () => {
      const resource = await admin.ok(`/${P}/${path}`, draft(`${path}-old`), 201);
      await admin.ok(`/${P}/${path}`, draft(`${path}-held`), 201);
      expectDuplicate(
        await admin.post(`/${P}/${path}/${resource.id}`, { version: resource.version, actions: [change(`${path}-held`)] }),
        field,
        `${path}-held`,
      );
      // Its own value again keeps the claim.
      const same = await admin.update(`/${P}/${path}/${resource.id}`, resource.version, [change(`${path}-old`)]);
      const changed = await admin.update(`/${P}/${path}/${resource.id}`, same.version, [change(`${path}-new`)]);
      expect(changed.name).toBe(`${path}-new`);
      await admin.ok(`/${P}/${path}`, draft(`${path}-old`), 201);
      expectDuplicate(await admin.post(`/${P}/${path}`, draft(`${path}-new`)), field, `${path}-new`);
    });

    it('releases the value on delete', async () => {
      const resource = await admin.ok(`/${P}/${path}`, draft(`${path}-gone`), 201);
      await remove(path, resource);
      await admin.ok(`/${P}/${path}`, draft(`${path}-gone`), 201);
    });
  });

  describe('inventory entries: sku with the supply channel', () => {
    it('lets exactly one of two racing creates of one combination succeed, with or without a channel', async () => {
      await expectOneOfRacingCreates('inventory', inventory('race-sku'), 'sku', 'race-sku');
      await expectOneOfRacingCreates('inventory', inventory('race-sku', 'warehouse'), 'sku', 'race-sku');
    });

    it('releases the old combination and claims the new one on setSupplyChannel, and on delete', async () => {
      const entry = await admin.ok(`/${P}/inventory`, inventory('moving'), 201);
      const moved = await admin.update(`/${P}/inventory/${entry.id}`, entry.version, [{ action: 'setSupplyChannel', supplyChannel: { key: 'warehouse' } }]);
      const stayed = await admin.ok(`/${P}/inventory`, inventory('moving'), 201);
      expectDuplicate(await admin.post(`/${P}/inventory`, inventory('moving', 'warehouse')), 'sku', 'moving');
      // Moving the other entry onto the held combination names the field the action changes.
      const refused = await admin.post(`/${P}/inventory/${stayed.id}`, {
        version: stayed.version,
        actions: [{ action: 'setSupplyChannel', supplyChannel: { key: 'warehouse' } }],
      });
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0]).toMatchObject({ code: 'DuplicateField', field: 'supplyChannel' });
      await remove('inventory', moved);
      await admin.ok(`/${P}/inventory`, inventory('moving', 'warehouse'), 201);
    });
  });

  describe('payments: interfaceId with the paymentInterface', () => {
    it('lets exactly one of two racing creates of one pair succeed', async () => {
      await expectOneOfRacingCreates('payments', payment('race-id'), 'interfaceId', 'race-id');
    });

    it('claims a pair set by setInterfaceId or setMethodInfoInterface, and releases it on delete', async () => {
      const held = await admin.ok(`/${P}/payments`, payment('held-id'), 201);
      const later = await admin.ok(`/${P}/payments`, payment(undefined), 201);
      expectDuplicate(
        await admin.post(`/${P}/payments/${later.id}`, { version: later.version, actions: [{ action: 'setInterfaceId', interfaceId: 'held-id' }] }),
        'interfaceId',
        'held-id',
      );
      await admin.update(`/${P}/payments/${later.id}`, later.version, [{ action: 'setInterfaceId', interfaceId: 'later-id' }]);
      expectDuplicate(await admin.post(`/${P}/payments`, payment('later-id')), 'interfaceId', 'later-id');

      const noInterface = await admin.ok(`/${P}/payments`, { amountPlanned: eur(1), interfaceId: 'held-id', paymentMethodInfo: {} }, 201);
      expectDuplicate(
        await admin.post(`/${P}/payments/${noInterface.id}`, {
          version: noInterface.version,
          actions: [{ action: 'setMethodInfoInterface', interface: 'psp' }],
        }),
        'interfaceId',
        'held-id',
      );
      await remove('payments', held);
      await admin.update(`/${P}/payments/${noInterface.id}`, noInterface.version, [{ action: 'setMethodInfoInterface', interface: 'psp' }]);
    });
  });
});
