import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PeerFault } from '../../src/peers/faults.js';
import { startServiceBusPeer, type ServiceBusPeer } from '../../src/peers/service-bus/index.js';
import { Clients, sasConnectionString, sasToken, sdkError } from './sdk.js';

let peer: ServiceBusPeer;
const clients = new Clients();

beforeEach(async () => {
  peer = await startServiceBusPeer({ entities: ['orders', 'other'] });
});
afterEach(async () => {
  await clients.closeAll();
  await peer.stop();
});

const sender = (entity = 'orders', timeoutInMs = 5_000) => clients.connect(peer.connectionString(), { retryOptions: { timeoutInMs } }).createSender(entity);

describe('Service Bus peer: sending with the real ServiceBusSender', () => {
  it('receives a single message intact', async () => {
    await sender().sendMessages({
      body: { orderId: 'o-1', lines: [{ sku: 'A', quantity: 2 }] },
      contentType: 'application/json',
      messageId: 'message-1',
      correlationId: 'correlation-1',
      subject: 'OrderCreated',
      timeToLive: 60_000,
      applicationProperties: { resourceType: 'order', sequenceNumber: 7, replay: false },
    });
    const [message] = await peer.waitFor('orders', 1);
    expect(message).toMatchObject({
      body: { orderId: 'o-1', lines: [{ sku: 'A', quantity: 2 }] },
      contentType: 'application/json',
      messageId: 'message-1',
      correlationId: 'correlation-1',
      subject: 'OrderCreated',
      timeToLiveMs: 60_000,
      applicationProperties: { resourceType: 'order', sequenceNumber: 7, replay: false },
      sequenceNumber: 1,
      arrivedInBatch: false,
      deliveryCount: 0,
    });
  });

  it('keeps a binary body as bytes', async () => {
    await sender().sendMessages({ body: Buffer.from([0, 1, 2, 255]), contentType: 'application/octet-stream' });
    const [message] = await peer.waitFor('orders', 1);
    expect(message?.rawBody).toEqual(Buffer.from([0, 1, 2, 255]));
  });

  it('receives an array of messages as one batch transfer, in order', async () => {
    await sender().sendMessages([1, 2, 3].map((n) => ({ body: { n }, messageId: `b-${n}`, applicationProperties: { n } })));
    const messages = await peer.waitFor('orders', 3);
    expect(messages.map((message) => [message.messageId, message.body, message.applicationProperties['n']])).toEqual([
      ['b-1', { n: 1 }, 1],
      ['b-2', { n: 2 }, 2],
      ['b-3', { n: 3 }, 3],
    ]);
    expect(messages.every((message) => message.arrivedInBatch)).toBe(true);
  });

  it('announces 262144 bytes on attach, which createMessageBatch and tryAddMessage respect', async () => {
    const orders = sender();
    const batch = await orders.createMessageBatch();
    expect(batch.maxSizeInBytes).toBe(262_144);
    let added = 0;
    while (batch.tryAddMessage({ body: { n: added, padding: 'p'.repeat(10_000) }, messageId: `m-${added}` })) added += 1;
    expect(added).toBeGreaterThan(20);
    expect(added).toBeLessThan(27); // ~10 KB each: the 262144-byte limit, not an unbounded batch
    await orders.sendMessages(batch);
    const messages = await peer.waitFor('orders', added);
    expect(messages.map((message) => message.messageId)).toEqual(Array.from({ length: added }, (_, n) => `m-${n}`));
  });

  it('announces a configured maximum message size', async () => {
    const small = await startServiceBusPeer({ entities: ['orders'], maxMessageSize: 65_536 });
    try {
      const orders = clients.connect(small.connectionString()).createSender('orders');
      expect((await orders.createMessageBatch()).maxSizeInBytes).toBe(65_536);
      await expect(orders.createMessageBatch({ maxSizeInBytes: 70_000 })).rejects.toThrow(/greater than maximum message size/);
    } finally {
      await small.stop();
    }
  });

  it('rejects a single oversized message with MessageSizeExceeded', async () => {
    const error = await sdkError(() => sender().sendMessages({ body: 'x'.repeat(300_000) }));
    expect(error).toMatchObject({ name: 'ServiceBusError', code: 'MessageSizeExceeded' });
    expect(peer.received('orders')).toHaveLength(0);
  });

  it('rejects a wrong key with UnauthorizedAccess', async () => {
    const wrongKey = peer.connectionString().replace(/SharedAccessKey=[^;]+/, 'SharedAccessKey=bm90LXRoZS1rZXk=');
    const error = await sdkError(() => clients.connect(wrongKey).createSender('orders').sendMessages({ body: 1 }));
    expect(error).toMatchObject({ name: 'ServiceBusError', code: 'UnauthorizedAccess' });
    expect(peer.received('orders')).toHaveLength(0);
  });

  it('rejects a wrong key name with UnauthorizedAccess', async () => {
    const wrongName = peer.connectionString().replace(/SharedAccessKeyName=[^;]+/, 'SharedAccessKeyName=SendOnly');
    const error = await sdkError(() => clients.connect(wrongName).createSender('orders').sendMessages({ body: 1 }));
    expect(error).toMatchObject({ code: 'UnauthorizedAccess' });
  });

  it('checks the shared access signature expiry and scope', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = (resource: string, expiresAt: number) => sasToken(resource, peer.keyName, peer.key, expiresAt);
    const send = (sas: string) => clients.connect(sasConnectionString(peer, sas)).createSender('orders').sendMessages({ body: 'sas' });

    await send(token(`${peer.endpoint}/orders`, now + 600));
    await send(token(`${peer.endpoint}/`, now + 600)); // a namespace-wide token covers every entity
    expect(await sdkError(() => send(token(`${peer.endpoint}/orders`, now - 1)))).toMatchObject({ code: 'UnauthorizedAccess' });
    expect(await sdkError(() => send(token(`${peer.endpoint}/other`, now + 600)))).toMatchObject({ code: 'UnauthorizedAccess' });
    expect(peer.received('orders')).toHaveLength(2);
  });

  it('reports an unknown entity as MessagingEntityNotFound', async () => {
    const error = await sdkError(() => sender('missing').sendMessages({ body: 1 }));
    expect(error).toMatchObject({ name: 'ServiceBusError', code: 'MessagingEntityNotFound' });
    peer.createEntity('missing');
    await sender('missing').sendMessages({ body: 1 });
    await peer.waitFor('missing', 1);
  });

  it('refuses sends into a deleted entity', async () => {
    await sender().sendMessages({ body: 'before' });
    peer.deleteEntity('orders');
    expect(await sdkError(() => sender().sendMessages({ body: 'after' }))).toMatchObject({ code: 'MessagingEntityNotFound' });
  });

  describe.each([
    ['unknown-entity', 'MessagingEntityNotFound'],
    ['bad-credentials', 'UnauthorizedAccess'],
    ['throttled', 'ServiceBusy'],
    ['server-error', 'GeneralError'],
    ['payload-too-large', 'MessageSizeExceeded'],
  ] as const)('the %s fault', (kind: PeerFault['kind'], code: string) => {
    it(`fails a send on an open link with ${code}, once`, async () => {
      const orders = sender();
      await orders.sendMessages({ body: 'warm-up' });
      peer.faults.inject({ kind }, 1);
      expect(await sdkError(() => orders.sendMessages({ body: 'faulted' }))).toMatchObject({ name: 'ServiceBusError', code });
      await orders.sendMessages({ body: 'after' });
      expect((await peer.waitFor('orders', 2)).map((message) => message.body)).toEqual(['warm-up', 'after']);
    });

    it(`fails the first send of a new client with ${code}`, async () => {
      peer.faults.inject({ kind }, 1);
      expect(await sdkError(() => sender().sendMessages({ body: 'faulted' }))).toMatchObject({ code });
      expect(peer.received('orders')).toHaveLength(0);
    });
  });

  it('keeps a fault until cleared when no count is given', async () => {
    const orders = sender();
    peer.faults.inject({ kind: 'throttled' });
    for (let attempt = 0; attempt < 3; attempt++) {
      expect(await sdkError(() => orders.sendMessages({ body: attempt }))).toMatchObject({ code: 'ServiceBusy' });
    }
    peer.faults.clear();
    await orders.sendMessages({ body: 'through' });
    await peer.waitFor('orders', 1);
  });

  it('never settles a send under the hang fault: the SDK times out', async () => {
    const orders = sender('orders', 500);
    await orders.sendMessages({ body: 'warm-up' });
    peer.faults.inject({ kind: 'hang' }, 1);
    expect(await sdkError(() => orders.sendMessages({ body: 'hung' }))).toMatchObject({ code: 'ServiceTimeout', retryable: true });
    expect(peer.received('orders').map((message) => message.body)).toEqual(['warm-up']);
  });

  it('drops the connection under the drop-connection fault; the SDK reconnects', async () => {
    const orders = sender('orders', 500);
    await orders.sendMessages({ body: 'warm-up' });
    peer.faults.inject({ kind: 'drop-connection' }, 1);
    const error = await sdkError(() => orders.sendMessages({ body: 'dropped' }));
    expect(error).toMatchObject({ name: 'ServiceBusError', retryable: true });
    await orders.sendMessages({ body: 'after' });
    expect((await peer.waitFor('orders', 2)).map((message) => message.body)).toEqual(['warm-up', 'after']);
  });

  it('fails a wait that is not satisfied, so a test cannot pass by accident', async () => {
    await expect(peer.waitFor('orders', 1, 50)).rejects.toThrow(/waiting for 1 messages in 'orders'; 0 arrived/);
  });
});
