/**
 * Issue 28: a Store's distribution and supply channels now that channels exist (reference:
 * StoreDraft, the Store channel update actions, MissingRoleOnChannelError,
 * StoreDistributionChannelsChanged / StoreSupplyChannelsChanged): a channel must exist
 * (ReferencedResourceNotFound) and have the list's role (MissingRoleOnChannel); lists hold
 * references by id that expand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'store-channels';

describe('Store distribution and supply channels', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let shop: Json;
  let warehouse: Json;
  let both: Json;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_stores', 'manage_channels', 'view_messages']);
    shop = await admin.ok(`/${P}/channels`, { key: 'shop', roles: ['ProductDistribution'] }, 201);
    warehouse = await admin.ok(`/${P}/channels`, { key: 'warehouse', roles: ['InventorySupply'] }, 201);
    both = await admin.ok(`/${P}/channels`, { key: 'both', roles: ['InventorySupply', 'ProductDistribution'] }, 201);
  }, 120_000);
  afterAll(async () => gateway?.close());

  const ref = (channel: Json) => ({ typeId: 'channel', id: channel.id as string });

  it('resolves StoreDraft channel lists by key or id to references, checked for their role', async () => {
    const store = await admin.ok(
      `/${P}/stores`,
      {
        key: 'with-channels',
        distributionChannels: [{ typeId: 'channel', key: 'shop' }, { id: both.id }, { key: 'shop' }],
        supplyChannels: [{ key: 'warehouse' }],
      },
      201,
    );
    expect(store.distributionChannels).toEqual([ref(shop), ref(both)]);
    expect(store.supplyChannels).toEqual([ref(warehouse)]);
    const expanded = await admin.read(`/${P}/stores/${store.id}?expand=distributionChannels[*]&expand=supplyChannels[*]`);
    expect(expanded.distributionChannels[0].obj).toMatchObject({ key: 'shop' });
    expect(expanded.supplyChannels[0].obj).toMatchObject({ key: 'warehouse' });

    const cases: Array<[Json, Json]> = [
      [
        { key: 's1', distributionChannels: [{ key: 'nowhere' }] },
        { code: 'ReferencedResourceNotFound', typeId: 'channel', key: 'nowhere' },
      ],
      [
        { key: 's2', supplyChannels: [{ id: 'no-such-id' }] },
        { code: 'ReferencedResourceNotFound', typeId: 'channel', id: 'no-such-id' },
      ],
      [
        { key: 's3', distributionChannels: [{ key: 'warehouse' }] },
        { code: 'MissingRoleOnChannel', missingRole: 'ProductDistribution', channel: { typeId: 'channel', key: 'warehouse' } },
      ],
      [
        { key: 's4', supplyChannels: [{ id: shop.id }] },
        { code: 'MissingRoleOnChannel', missingRole: 'InventorySupply', channel: { id: shop.id } },
      ],
      [{ key: 's5', supplyChannels: [{ typeId: 'store', key: 'warehouse' }] }, { code: 'InvalidInput' }],
      [
        { key: 's6', supplyChannels: { key: 'warehouse' } },
        { code: 'InvalidInput', field: 'supplyChannels' },
      ],
    ];
    for (const [draft, error] of cases) {
      const answer = await admin.post(`/${P}/stores`, draft);
      expect(answer.status, JSON.stringify(draft)).toBe(400);
      expect(answer.body.errors[0], JSON.stringify(draft)).toMatchObject(error);
    }
  });

  it('applies the channel actions with their messages; a missing channel or role changes nothing', async () => {
    const store = await admin.ok(`/${P}/stores`, { key: 'channel-actions' }, 201);
    const url = `/${P}/stores/${store.id}`;
    const updated = await admin.update(url, 1, [
      { action: 'addDistributionChannel', distributionChannel: { key: 'shop' } },
      { action: 'addDistributionChannel', distributionChannel: { key: 'shop' } },
      { action: 'setSupplyChannels', supplyChannels: [{ key: 'warehouse' }, { key: 'both' }] },
      { action: 'removeSupplyChannel', supplyChannel: { key: 'warehouse' } },
      { action: 'addSupplyChannel', supplyChannel: { key: 'warehouse' } },
      { action: 'setDistributionChannels', distributionChannels: [{ key: 'both' }] },
      { action: 'removeDistributionChannel', distributionChannel: { key: 'shop' } },
    ]);
    expect(updated).toMatchObject({ version: 2, distributionChannels: [ref(both)], supplyChannels: [ref(both), ref(warehouse)] });

    const refused: Array<[Json, string]> = [
      [{ action: 'addDistributionChannel', distributionChannel: { key: 'warehouse' } }, 'MissingRoleOnChannel'],
      [{ action: 'setSupplyChannels', supplyChannels: [{ key: 'shop' }] }, 'MissingRoleOnChannel'],
      [{ action: 'addSupplyChannel', supplyChannel: { key: 'nowhere' } }, 'ReferencedResourceNotFound'],
      [{ action: 'removeDistributionChannel', distributionChannel: { id: 'gone' } }, 'ReferencedResourceNotFound'],
      [{ action: 'addSupplyChannel' }, 'InvalidInput'],
    ];
    for (const [action, code] of refused) {
      const answer = await admin.post(url, { version: 2, actions: [action] });
      expect(answer.status, JSON.stringify(action)).toBe(400);
      expect(answer.body.errors[0].code, JSON.stringify(action)).toBe(code);
    }
    const unchanged = await admin.update(url, 2, [
      { action: 'addSupplyChannel', supplyChannel: { key: 'both' } },
      { action: 'removeDistributionChannel', distributionChannel: { key: 'shop' } },
    ]);
    expect(unchanged.version).toBe(2);

    const where = encodeURIComponent(`resource(id = "${store.id as string}")`);
    const messages = (await admin.read(`/${P}/messages?where=${where}&sort=${encodeURIComponent('sequenceNumber asc')}`)).results as Json[];
    const payloads = messages
      .filter((message) => message.type !== 'StoreCreated')
      .map(({ type, addedDistributionChannels, removedDistributionChannels, addedSupplyChannels, removedSupplyChannels }) => ({
        type,
        addedDistributionChannels,
        removedDistributionChannels,
        addedSupplyChannels,
        removedSupplyChannels,
      }));
    expect(payloads).toEqual(
      [
        { type: 'StoreDistributionChannelsChanged', addedDistributionChannels: [ref(shop)] },
        { type: 'StoreSupplyChannelsChanged', addedSupplyChannels: [ref(warehouse), ref(both)] },
        { type: 'StoreSupplyChannelsChanged', removedSupplyChannels: [ref(warehouse)] },
        { type: 'StoreSupplyChannelsChanged', addedSupplyChannels: [ref(warehouse)] },
        { type: 'StoreDistributionChannelsChanged', addedDistributionChannels: [ref(both)], removedDistributionChannels: [ref(shop)] },
      ].map((expected) => ({
        addedDistributionChannels: undefined,
        removedDistributionChannels: undefined,
        addedSupplyChannels: undefined,
        removedSupplyChannels: undefined,
        ...expected,
      })),
    );
  });
});
