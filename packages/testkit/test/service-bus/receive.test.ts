import type { ServiceBusReceivedMessage } from '@azure/service-bus';
import { afterEach, describe, expect, it } from 'vitest';
import { startServiceBusPeer, type ServiceBusPeer, type ServiceBusPeerOptions } from '../../src/peers/service-bus/index.js';
import { Clients, sdkError } from './sdk.js';

let peer: ServiceBusPeer | undefined;
const clients = new Clients();

async function start(options: ServiceBusPeerOptions = {}): Promise<ServiceBusPeer> {
  peer = await startServiceBusPeer({ entities: ['orders'], ...options });
  return peer;
}
afterEach(async () => {
  await clients.closeAll();
  await peer?.stop();
  peer = undefined;
});

const client = (target: ServiceBusPeer) => clients.connect(target.connectionString());
const bodies = (messages: readonly { body: unknown }[]) => messages.map((message) => message.body);

/** Receives exactly `count` messages (receiveMessages may return fewer per call). */
async function receiveExactly(
  receiver: { receiveMessages(max: number, options: { maxWaitTimeInMs: number }): Promise<ServiceBusReceivedMessage[]> },
  count: number,
): Promise<ServiceBusReceivedMessage[]> {
  const received: ServiceBusReceivedMessage[] = [];
  while (received.length < count) {
    const batch = await receiver.receiveMessages(count - received.length, { maxWaitTimeInMs: 5_000 });
    if (batch.length === 0) throw new Error(`received ${received.length} of ${count} messages`);
    received.push(...batch);
  }
  return received;
}

describe('Service Bus peer: receiving with the real ServiceBusReceiver', () => {
  it('delivers enqueued messages in peekLock mode with broker properties, and completes them', async () => {
    const sb = await start();
    sb.enqueue('orders', {
      body: { n: 1 },
      messageId: 'm-1',
      subject: 'OrderCreated',
      contentType: 'application/json',
      applicationProperties: { tenant: 't1' },
    });
    sb.enqueue('orders', { body: { n: 2 }, messageId: 'm-2' });
    const receiver = client(sb).createReceiver('orders');
    const before = Date.now();
    const messages = await receiveExactly(receiver, 2);

    expect(bodies(messages)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(messages[0]).toMatchObject({
      messageId: 'm-1',
      subject: 'OrderCreated',
      contentType: 'application/json',
      applicationProperties: { tenant: 't1' },
      deliveryCount: 0,
    });
    expect(messages.map((message) => message.sequenceNumber?.toNumber())).toEqual([1, 2]);
    expect(messages[0]?.lockToken).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(messages[0]?.lockedUntilUtc?.getTime()).toBeGreaterThanOrEqual(before + 60_000);
    expect(sb.pending('orders').map((message) => message.state)).toEqual(['locked', 'locked']);

    for (const message of messages) await receiver.completeMessage(message);
    const settlements = await sb.waitForSettlements('orders', 2);
    expect(settlements.map((settlement) => [settlement.outcome, settlement.messageId])).toEqual([
      ['completed', 'm-1'],
      ['completed', 'm-2'],
    ]);
    expect(sb.pending('orders')).toEqual([]);
  });

  it('round-trips what the SDK sender sent, including batches', async () => {
    const sb = await start();
    const sbClient = client(sb);
    await sbClient.createSender('orders').sendMessages([{ body: { a: 1 }, correlationId: 'c-1' }, { body: Buffer.from('raw') }]);
    const [first, second] = await receiveExactly(sbClient.createReceiver('orders', { receiveMode: 'receiveAndDelete' }), 2);
    expect(first).toMatchObject({ body: { a: 1 }, correlationId: 'c-1' });
    expect(Buffer.from(second?.body as Uint8Array).toString()).toBe('raw');
  });

  it('makes an abandoned message available again with its delivery count incremented', async () => {
    const sb = await start();
    sb.enqueue('orders', { body: 'retry me', messageId: 'a-1' });
    const receiver = client(sb).createReceiver('orders');
    const [first] = await receiveExactly(receiver, 1);
    await receiver.abandonMessage(first!, { attempt: 'one' });
    const [again] = await receiveExactly(receiver, 1);
    expect(again).toMatchObject({ messageId: 'a-1', body: 'retry me', deliveryCount: 1, applicationProperties: { attempt: 'one' } });
    expect(again?.lockToken).not.toBe(first?.lockToken);
    expect((await sb.waitForSettlements('orders', 1))[0]).toMatchObject({ outcome: 'abandoned', deliveryCount: 1 });
  });

  it('dead-letters a message with its reason, receivable from the dead-letter queue', async () => {
    const sb = await start();
    sb.enqueue('orders', { body: 'poison', messageId: 'p-1' });
    const sbClient = client(sb);
    const receiver = sbClient.createReceiver('orders');
    const [message] = await receiveExactly(receiver, 1);
    await receiver.deadLetterMessage(message!, { deadLetterReason: 'Unparseable', deadLetterErrorDescription: 'no type field' });

    expect(sb.deadLetters('orders')).toMatchObject([
      { messageId: 'p-1', applicationProperties: { DeadLetterReason: 'Unparseable', DeadLetterErrorDescription: 'no type field' } },
    ]);
    expect(sb.settlements('orders')[0]).toMatchObject({ outcome: 'dead-lettered', deadLetterReason: 'Unparseable' });
    const deadLetterReceiver = sbClient.createReceiver('orders', { subQueueType: 'deadLetter', receiveMode: 'receiveAndDelete' });
    const [dead] = await receiveExactly(deadLetterReceiver, 1);
    expect(dead).toMatchObject({ messageId: 'p-1', deadLetterReason: 'Unparseable', deadLetterErrorDescription: 'no type field', deadLetterSource: 'orders' });
  });

  it('dead-letters after the maximum delivery count', async () => {
    const sb = await start({ maxDeliveryCount: 2 });
    sb.enqueue('orders', { body: 'flaky', messageId: 'f-1' });
    const receiver = client(sb).createReceiver('orders');
    for (let attempt = 0; attempt < 2; attempt++) await receiver.abandonMessage((await receiveExactly(receiver, 1))[0]!);
    expect(sb.deadLetters('orders')).toMatchObject([{ messageId: 'f-1', applicationProperties: { DeadLetterReason: 'MaxDeliveryCountExceeded' } }]);
    expect(sb.pending('orders')).toEqual([]);
  });

  it('defers a message out of the delivery path', async () => {
    const sb = await start();
    sb.enqueue('orders', { body: 'later', messageId: 'd-1' });
    const receiver = client(sb).createReceiver('orders');
    await receiver.deferMessage((await receiveExactly(receiver, 1))[0]!);
    expect(sb.pending('orders')).toMatchObject([{ messageId: 'd-1', state: 'deferred' }]);
    expect(sb.settlements('orders')[0]?.outcome).toBe('deferred');
  });

  it('removes messages as it delivers them in receiveAndDelete mode', async () => {
    const sb = await start();
    for (const n of [1, 2, 3]) sb.enqueue('orders', { body: n });
    const messages = await receiveExactly(client(sb).createReceiver('orders', { receiveMode: 'receiveAndDelete' }), 3);
    expect(bodies(messages)).toEqual([1, 2, 3]);
    expect(messages[0]?.lockToken).toBeUndefined();
    expect(sb.pending('orders')).toEqual([]);
    expect(sb.settlements('orders').map((settlement) => settlement.outcome)).toEqual(['received-and-deleted', 'received-and-deleted', 'received-and-deleted']);
  });

  it('answers a drain: receiveMessages returns what there is, and later receives still get credit', async () => {
    const sb = await start();
    sb.enqueue('orders', { body: 'only one' });
    const receiver = client(sb).createReceiver('orders', { receiveMode: 'receiveAndDelete' });
    // Asks for 5 with one available: the SDK drains the remaining credit and must get it back.
    expect(bodies(await receiver.receiveMessages(5, { maxWaitTimeInMs: 200 }))).toEqual(['only one']);
    sb.enqueue('orders', { body: 'second' });
    sb.enqueue('orders', { body: 'third' });
    expect(bodies(await receiveExactly(receiver, 2))).toEqual(['second', 'third']);
  });

  it('streams to subscribe() handlers and auto-completes', async () => {
    const sb = await start();
    const sbClient = client(sb);
    const seen: unknown[] = [];
    const subscription = sbClient.createReceiver('orders').subscribe(
      {
        processMessage: async (message) => void seen.push(message.body),
        processError: async () => undefined,
      },
      { maxConcurrentCalls: 2 },
    );
    await sbClient.createSender('orders').sendMessages([1, 2, 3, 4].map((n) => ({ body: { n } })));
    const settlements = await sb.waitForSettlements('orders', 4);
    await subscription.close();
    expect(settlements.every((settlement) => settlement.outcome === 'completed')).toBe(true);
    expect(seen).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
  });

  it('reports the deletion of an entity to a subscribed receiver as MessagingEntityNotFound', async () => {
    const sb = await start();
    let reportError: (error: unknown) => void = () => undefined;
    const reported = new Promise<unknown>((resolve) => (reportError = resolve));
    const receiver = client(sb).createReceiver('orders');
    const subscription = receiver.subscribe({ processMessage: async () => undefined, processError: async ({ error }) => reportError(error) });
    sb.enqueue('orders', { body: 'first' });
    await sb.waitForSettlements('orders', 1); // the link is up and delivering
    sb.deleteEntity('orders');
    expect(await reported).toMatchObject({ code: 'MessagingEntityNotFound' });
    await subscription.close();
  });

  it('fans a topic message out to its subscriptions', async () => {
    const sb = await start({ entities: ['events/Subscriptions/billing', 'events/Subscriptions/shipping'] });
    const sbClient = clients.connect(sb.connectionString('events'));
    await sbClient.createSender('events').sendMessages({ body: { type: 'OrderCreated' }, messageId: 'e-1' });
    const [billing] = await receiveExactly(sbClient.createReceiver('events', 'billing'), 1);
    expect(billing).toMatchObject({ messageId: 'e-1', body: { type: 'OrderCreated' } });
    expect((await sb.waitFor('events/Subscriptions/shipping', 1))[0]?.messageId).toBe('e-1');
  });

  it('renews a message lock through $management', async () => {
    const sb = await start({ lockDurationMs: 30_000 });
    sb.enqueue('orders', { body: 'long job' });
    const receiver = client(sb).createReceiver('orders');
    const [message] = await receiveExactly(receiver, 1);
    const before = Date.now();
    const renewedUntil = await receiver.renewMessageLock(message!);
    const after = Date.now();
    expect(renewedUntil.getTime()).toBeGreaterThanOrEqual(before + 30_000);
    expect(renewedUntil.getTime()).toBeLessThanOrEqual(after + 30_000);
    await receiver.completeMessage(message!);
    expect((await sb.waitForSettlements('orders', 1))[0]?.outcome).toBe('completed');
  });

  it('expires a lock: the message comes back, and settling with the old lock fails with MessageLockLost', async () => {
    const sb = await start({ lockDurationMs: 200 });
    sb.enqueue('orders', { body: 'slow', messageId: 's-1' });
    const receiver = client(sb).createReceiver('orders', { maxAutoLockRenewalDurationInMs: 0 });
    const [first] = await receiveExactly(receiver, 1);
    expect((await sb.waitForSettlements('orders', 1))[0]).toMatchObject({ outcome: 'lock-expired', deliveryCount: 1 });
    expect(await sdkError(() => receiver.completeMessage(first!))).toMatchObject({ code: 'MessageLockLost' });
    const [again] = await receiveExactly(receiver, 1);
    expect(again).toMatchObject({ messageId: 's-1', deliveryCount: 1 });
    await receiver.completeMessage(again!);
  });

  it('settles through $management when the receiving link is gone', async () => {
    const sb = await start();
    sb.enqueue('orders', { body: 'survivor', messageId: 'r-1' });
    const sbClient = client(sb);
    const first = sbClient.createReceiver('orders');
    const [message] = await receiveExactly(first, 1);
    await first.close();
    // Without the link it came on, the SDK settles by lock token on the entity's management node.
    await sbClient.createReceiver('orders').completeMessage(message!);
    expect((await sb.waitForSettlements('orders', 1))[0]).toMatchObject({ outcome: 'completed', messageId: 'r-1' });
    expect(sb.pending('orders')).toEqual([]);
  });

  it('keeps a subscribed receiver going across a dropped connection', async () => {
    const sb = await start();
    const errors: unknown[] = [];
    const subscription = client(sb)
      .createReceiver('orders')
      .subscribe({ processMessage: async () => undefined, processError: async ({ error }) => void errors.push(error) });
    sb.enqueue('orders', { body: 'before' });
    await sb.waitForSettlements('orders', 1);
    sb.dropConnections();
    sb.enqueue('orders', { body: 'after' });
    const settlements = await sb.waitForSettlements('orders', 2, 15_000);
    expect(settlements.map((settlement) => settlement.outcome)).toEqual(['completed', 'completed']);
    await subscription.close();
  });

  it.each([
    ['throttled', 'ServiceBusy'],
    ['server-error', 'GeneralError'],
    ['unknown-entity', 'MessagingEntityNotFound'],
  ] as const)('fails a settlement under the %s fault with %s; the message stays locked', async (kind, code) => {
    const sb = await start();
    sb.enqueue('orders', { body: 'x' });
    const receiver = client(sb).createReceiver('orders');
    const [message] = await receiveExactly(receiver, 1);
    sb.faults.inject({ kind }, 1);
    expect(await sdkError(() => receiver.completeMessage(message!))).toMatchObject({ code });
    expect(sb.pending('orders')[0]?.state).toBe('locked');
    expect(sb.settlements('orders')).toEqual([]);
  });

  it('refuses a receiver on an unknown entity with MessagingEntityNotFound', async () => {
    const sb = await start();
    const error = await sdkError(() => client(sb).createReceiver('missing').receiveMessages(1, { maxWaitTimeInMs: 1_000 }));
    expect(error).toMatchObject({ code: 'MessagingEntityNotFound' });
  });
});
