import { ServiceBusClient } from '@azure/service-bus';
import { afterEach, describe, expect, it } from 'vitest';
import { startServiceBusPeer, type ServiceBusPeer } from '@herald/testkit';
import { createConsumer, MemoryDedupStore, ServiceBusSource, type ConsumerOptions, type Delivery } from '../../src/index.js';
import { cloudEventOf, messagePayload } from '../support/fixtures.js';
import { until } from '../support/until.js';

let peer: ServiceBusPeer | undefined;
let client: ServiceBusClient | undefined;
let source: ServiceBusSource | undefined;

afterEach(async () => {
  await source?.stop();
  await client?.close();
  await peer?.stop();
  source = undefined;
  client = undefined;
  peer = undefined;
});

async function start(consumerOptions: Partial<ConsumerOptions>, handled: Delivery[]): Promise<ServiceBusPeer> {
  peer = await startServiceBusPeer({ entities: ['herald'] });
  client = new ServiceBusClient(peer.connectionString(), { retryOptions: { maxRetries: 0, timeoutInMs: 5_000 } });
  const consumer = createConsumer({ dedup: new MemoryDedupStore(), handler: (delivery) => void handled.push(delivery), ...consumerOptions });
  source = new ServiceBusSource({ client, consumer }, { queueName: 'herald', maxConcurrentCalls: 4 });
  source.start();
  return peer;
}

const sequenceOf = (delivery: Delivery | undefined) => (delivery?.notificationType === 'Message' ? delivery.payload.sequenceNumber : undefined);

describe('ServiceBusSource against the Service Bus peer (AMQP, peekLock)', () => {
  it('completes Platform, structured and binary CloudEvents messages after handling them in order', async () => {
    const handled: Delivery[] = [];
    // unknownStart 'wait': the resource is new to the consumer, and the order asserted below must
    // not depend on whether m-1 arrives within the brief hold of a first-seen resource.
    const sb = await start({ ordering: { maxWaitMs: 30_000, unknownStart: 'wait' } }, handled);
    const third = cloudEventOf(messagePayload(3));
    sb.enqueue('herald', { body: Buffer.from(JSON.stringify(third)), contentType: 'application/cloudevents+json; charset=utf-8', messageId: 'm-3' });
    sb.enqueue('herald', {
      body: messagePayload(2),
      contentType: 'application/json',
      messageId: 'm-2',
      applicationProperties: { 'cloudEvents:specversion': '1.0', 'cloudEvents:id': 'e-2', 'cloudEvents:type': third.type, 'cloudEvents:source': third.source },
    });
    sb.enqueue('herald', { body: messagePayload(1), contentType: 'application/json', messageId: 'm-1' });
    const settlements = await sb.waitForSettlements('herald', 3);
    expect(settlements.map((settlement) => settlement.outcome)).toEqual(['completed', 'completed', 'completed']);
    expect(handled.map(sequenceOf)).toEqual([1, 2, 3]);
    expect(handled.map((delivery) => delivery.origin.cloudEventsMode)).toEqual([undefined, 'binary', 'structured']);
    expect(handled[0]?.origin.sentAt).toBeTypeOf('number');
    expect(sb.pending('herald')).toEqual([]);
  });

  it('keeps receiving while early deliveries wait in the reorder buffer, so a backlog out of order cannot stall it', async () => {
    // A backlog in reverse (as after a destination outage) with 4 slots: the first messages are all
    // early deliveries waiting for predecessors still in the queue.
    const handled: Delivery[] = [];
    // unknownStart 'wait': a first-seen resource's deliveries wait for their predecessors (up to the
    // 10-minute window) instead of the brief hold, so the backlog can only complete in order.
    const sb = await start({ ordering: { maxWaitMs: 600_000, unknownStart: 'wait' } }, handled);
    for (let sequence = 12; sequence >= 1; sequence--) sb.enqueue('herald', { body: messagePayload(sequence), messageId: `m-${sequence}` });
    // Without the fix the source waits for the 10-minute ordering window before taking more.
    const settlements = await sb.waitForSettlements('herald', 12);
    expect(settlements.map((settlement) => settlement.outcome)).toEqual(new Array(12).fill('completed'));
    expect(handled.map(sequenceOf)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('abandons a message whose handler failed; the redelivery is processed and completed', async () => {
    const handled: Delivery[] = [];
    let failures = 1;
    const attempts: (number | undefined)[] = [];
    const sb = await start(
      {
        retry: { failureBaseMs: 0 },
        handler: (delivery, context) => {
          attempts.push(context.deliveryAttempt);
          if (failures-- > 0) throw new Error('downstream unavailable');
          handled.push(delivery);
        },
      },
      handled,
    );
    sb.enqueue('herald', { body: messagePayload(1), messageId: 'm-1' });
    const settlements = await sb.waitForSettlements('herald', 2);
    expect(settlements.map((settlement) => settlement.outcome)).toEqual(['abandoned', 'completed']);
    expect(attempts).toEqual([1, 2]);
    expect(handled).toHaveLength(1);
  });

  it('completes a duplicate without handling it again', async () => {
    const handled: Delivery[] = [];
    const sb = await start({}, handled);
    sb.enqueue('herald', { body: messagePayload(1), messageId: 'first' });
    sb.enqueue('herald', { body: cloudEventOf(messagePayload(1)), contentType: 'application/cloudevents+json', messageId: 'copy' });
    const settlements = await sb.waitForSettlements('herald', 2);
    expect(settlements.map((settlement) => settlement.outcome)).toEqual(['completed', 'completed']);
    expect(handled).toHaveLength(1);
  });

  it('dead-letters a poison message with the parse error as its description', async () => {
    const handled: Delivery[] = [];
    const sb = await start({}, handled);
    sb.enqueue('herald', { body: { hello: 'world' }, messageId: 'poison' });
    const [settlement] = await sb.waitForSettlements('herald', 1);
    expect(settlement).toMatchObject({ outcome: 'dead-lettered', deadLetterReason: 'HeraldParseError' });
    expect(settlement?.deadLetterErrorDescription).toMatch(/^unrecognized-shape: /);
    expect(sb.deadLetters('herald')).toHaveLength(1);
    expect(handled).toEqual([]);
  });

  it('stop() waits for the message being handled and settles it', async () => {
    const handled: Delivery[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let running = false;
    const sb = await start(
      {
        handler: async (delivery) => {
          running = true;
          await released;
          handled.push(delivery);
        },
      },
      handled,
    );
    sb.enqueue('herald', { body: messagePayload(1), messageId: 'slow' });
    await until(() => running, 'the handler runs', 5_000_000);
    const stopping = (source as ServiceBusSource).stop();
    release();
    await stopping;
    source = undefined;
    expect(handled).toHaveLength(1);
    expect((await sb.waitForSettlements('herald', 1))[0]?.outcome).toBe('completed');
  });

  it('stops receiving before it waits for a slow handler, so messages sent meanwhile do not bounce into the dead-letter queue', async () => {
    const handled: Delivery[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let running = false;
    const sb = await start(
      {
        handler: async (delivery) => {
          if (delivery.payload.resource.id === 'slow') {
            running = true;
            await released;
          }
          handled.push(delivery);
        },
      },
      handled,
    );
    sb.enqueue('herald', { body: messagePayload(1, { id: 'slow' }), messageId: 'slow' });
    await until(() => running, 'the slow handler runs', 5_000_000);
    // A rolling deploy. With the subscription still open while stop() waited, each message received
    // was abandoned at once, redelivered at once ... until MaxDeliveryCount (10) dead-lettered it.
    const stopping = (source as ServiceBusSource).stop();
    sb.enqueue('herald', { body: messagePayload(1, { id: 'other' }), messageId: 'other' });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    release();
    await stopping;
    source = undefined;
    expect(sb.deadLetters('herald')).toEqual([]);
    expect(sb.pending('herald').length).toBe(1);
    expect(handled.map((delivery) => delivery.payload.resource.id)).toEqual(['slow']);
  });

  it('can be started again after stop()', async () => {
    const handled: Delivery[] = [];
    const sb = await start({}, handled);
    await (source as ServiceBusSource).stop();
    (source as ServiceBusSource).start();
    sb.enqueue('herald', { body: messagePayload(1), messageId: 'after-restart' });
    // With the stop signal kept from the first run, every message was abandoned at once, forever.
    const [settlement] = await sb.waitForSettlements('herald', 1);
    expect(settlement?.outcome).toBe('completed');
    expect(handled).toHaveLength(1);
  });
});
