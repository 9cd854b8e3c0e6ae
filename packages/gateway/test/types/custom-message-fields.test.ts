/**
 * What a Custom message names the replaced Type and value, per the reference: Customer* and Order*
 * messages carry `previousTypeId` / `previousValue` (types/message/CustomerCustomFieldChangedMessage.raml,
 * OrderCustomTypeSetMessage.raml …), CustomerGroup* and BusinessUnit* ones `oldTypeId` / `oldValue`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { freshOrder, messagesOf, orderParties, type OrderParties } from '../orders/fixtures.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'custom-message-fields';
const fieldDefinitions = [{ name: 'note', label: { en: 'Note' }, required: false, type: { name: 'String' } }];

describe('the replaced Type and value in Custom messages', { timeout: 120_000 }, () => {
  let gateway: TestGateway;
  let parties: OrderParties;
  const types: Record<string, string> = {};

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    parties = await orderParties(gateway, P);
    for (const key of ['first', 'second']) {
      const resourceTypeIds = ['customer', 'order', 'customer-group'];
      types[key] = (await parties.seller.ok(`/${P}/types`, { key, name: { en: key }, resourceTypeIds, fieldDefinitions }, 201)).id as string;
    }
  }, 120_000);
  afterAll(() => gateway?.close());

  /** setCustomType, setCustomField twice, setCustomType again, then removed: the five messages' replaced fields. */
  async function replacements(url: string, doc: Json, caller: Caller = parties.seller): Promise<Json[]> {
    await caller.update(url, doc.version, [
      { action: 'setCustomType', type: { typeId: 'type', key: 'first' }, fields: { note: 'a' } },
      { action: 'setCustomField', name: 'note', value: 'b' },
      { action: 'setCustomType', type: { typeId: 'type', key: 'second' } },
      { action: 'setCustomType' },
    ]);
    const custom = (await messagesOf(parties.seller, P, doc.id as string)).filter((message) => /Custom(Type|Field)/.test(message.type as string));
    return custom.map(({ type, oldTypeId, oldValue, previousTypeId, previousValue }) => ({ type, oldTypeId, oldValue, previousTypeId, previousValue }));
  }

  it.each([
    ['Customer', async () => parties.seller.ok(`/${P}/customers`, { email: 'custom-fields@example.com', password: 'secret-1234' }, 201)],
    ['Order', async () => freshOrder(P, parties)],
  ])('%s messages name them previousTypeId and previousValue', async (prefix, make) => {
    const made = await make();
    const doc = (made.customer ?? made) as Json;
    const path = prefix === 'Customer' ? 'customers' : 'orders';
    expect(await replacements(`/${P}/${path}/${doc.id as string}`, doc)).toEqual([
      { type: `${prefix}CustomTypeSet` },
      { type: `${prefix}CustomFieldChanged`, previousValue: 'a' },
      { type: `${prefix}CustomTypeSet`, previousTypeId: types.first },
      { type: `${prefix}CustomTypeRemoved`, previousTypeId: types.second },
    ]);
  });

  it('CustomerGroup messages name them oldTypeId and oldValue', async () => {
    const groups = await callerWith(gateway, P, ['manage_customer_groups']);
    const group = await groups.ok(`/${P}/customer-groups`, { groupName: 'Named' }, 201);
    expect(await replacements(`/${P}/customer-groups/${group.id as string}`, group, groups)).toEqual([
      { type: 'CustomerGroupCustomTypeSet' },
      { type: 'CustomerGroupCustomFieldChanged', oldValue: 'a' },
      { type: 'CustomerGroupCustomTypeSet', oldTypeId: types.first },
      { type: 'CustomerGroupCustomTypeRemoved', oldTypeId: types.second },
    ]);
  });
});
