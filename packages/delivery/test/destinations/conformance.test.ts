import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryPayload, Destination, Format } from '@herald/model';
import type { DestinationAdapter, EncodeContext, EncodedMessage, FailureClass, SendOutcome } from '../../src/destinations/port.js';
import { formatDelivery } from '../../src/format/formatted.js';
import { withoutMessagePayload } from '../../src/format/payload-not-included.js';
import { DESTINATIONS } from '../../src/destinations/registry.js';
import { createDestinationEnvironment, DestinationPool, sendTestNotification } from '../../src/index.js';
import type { PeerFault } from '@herald/testkit';
import { changePayloads, hopelesslyLargeMessage, messagePayload, oversizedMessage, PROJECT_KEY } from './support/payloads.js';
import type { DestinationHarness } from './support/harness.js';
import { HARNESSES } from './support/harnesses/index.js';
import { isLoopback, watchOutboundConnections } from './support/loopback-guard.js';

/**
 * One conformance suite for every destination adapter: the real SDK against a local wire-level
 * peer (fauxqs for SQS/SNS, @herald/testkit peers for the others), loopback only; in each format
 * the destination's descriptor accepts.
 */
const FORMATS: Readonly<Record<Format['type'], Format>> = {
  Platform: { type: 'Platform' },
  CloudEvents: { type: 'CloudEvents', cloudEventsVersion: '1.0' },
};

const CLOUDEVENTS_PREFIX = 'com.commercetools';
const outbound = watchOutboundConnections();

afterAll(() => {
  outbound.stop();
  // The guard must have seen the suite's own connections, or it proves nothing.
  expect(outbound.addresses.size).toBeGreaterThan(0);
  expect([...outbound.addresses].filter((address) => !isLoopback(address))).toEqual([]);
});

/** The document a consumer must receive for this payload in this format, through this destination. */
function expectedDocument(harness: DestinationHarness, payload: DeliveryPayload, format: Format): unknown {
  const document = JSON.parse(formatDelivery(payload, format, { cloudEventsTypePrefix: CLOUDEVENTS_PREFIX }).json) as object;
  return format.type === 'CloudEvents' ? { ...document, ...harness.cloudEventAttributesAddedBySdk } : document;
}

function failureOf(outcome: SendOutcome | undefined): { class: FailureClass; code: string } {
  if (outcome?.status !== 'failed') throw new Error(`expected a failed outcome, got ${JSON.stringify(outcome)}`);
  return { class: outcome.failure.class, code: outcome.failure.code };
}

/** Sort key for comparing arrivals regardless of the order concurrent requests landed in. */
function documentKey(document: unknown): string {
  // Key order is not part of JSON's meaning (the Event Grid SDK writes attributes in its own order).
  return JSON.stringify(document, (_key, value: unknown) =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
}

/** Faults every peer can produce, and the class Herald must report (§3.3, sdk-facts.md table). */
const FAULT_CLASSES: readonly { fault: PeerFault; expected: FailureClass }[] = [
  { fault: { kind: 'unknown-entity' }, expected: 'configuration' },
  { fault: { kind: 'bad-credentials' }, expected: 'configuration' },
  { fault: { kind: 'throttled' }, expected: 'temporary' },
  { fault: { kind: 'server-error' }, expected: 'temporary' },
  { fault: { kind: 'drop-connection' }, expected: 'temporary' },
  { fault: { kind: 'payload-too-large' }, expected: 'payload' },
];

describe.each(Object.entries(HARNESSES))('%s adapter conformance', (_type, make) => {
  const harness = make();
  const formats = DESTINATIONS[harness.type].formats.map((type) => FORMATS[type]);
  let pool: DestinationPool;
  let subscriptionCounter = 0;

  beforeAll(async () => {
    await harness.start();
    pool = new DestinationPool(
      createDestinationEnvironment({
        ...harness.envOptions(),
        timeouts: { sendMs: 5_000 },
        cloudEventsTypePrefix: CLOUDEVENTS_PREFIX,
      }),
    );
  });

  afterAll(async () => {
    await pool?.closeAll();
    await harness.stop();
  });

  afterEach(() => harness.clearFaults());

  function fresh(): { adapter: DestinationAdapter; destination: Destination; context: EncodeContext & { subscriptionKey: string } } {
    subscriptionCounter += 1;
    const context = {
      subscriptionId: `5f0e5a43-0000-4000-8000-${String(subscriptionCounter).padStart(12, '0')}`,
      subscriptionKey: `orders-${subscriptionCounter}`,
    };
    const destination = harness.freshDestination(context);
    return { adapter: pool.get(destination), destination, context };
  }

  function encodeAll(adapter: DestinationAdapter, payloads: readonly DeliveryPayload[], format: Format, context: EncodeContext): EncodedMessage[] {
    return payloads.map((payload) => {
      const result = adapter.encode(payload, format, context);
      if (!result.ok) throw new Error(`encode failed: ${result.failure.message}`);
      return result.message;
    });
  }

  const defaultFormat = formats[0] as Format;

  describe.each(formats.map((format) => [format.type, format] as const))('in the %s format', (_name, format) => {
    it('delivers a single message intact', async () => {
      const { adapter, context } = fresh();
      const payload = messagePayload(1);
      const outcomes = await adapter.send(encodeAll(adapter, [payload], format, context));
      expect(outcomes).toEqual([{ status: 'delivered' }]);
      const arrivals = await harness.arrivals(1);
      expect(arrivals.map((arrival) => arrival.document)).toEqual([expectedDocument(harness, payload, format)]);
      checkBinding(harness, arrivals[0]?.meta ?? {}, payload, format, context);
    });

    it('delivers a batch of messages and changes intact, in native batches', async () => {
      const { adapter, context } = fresh();
      const payloads: DeliveryPayload[] = [];
      for (let i = 0; payloads.length < 25; i++) payloads.push(messagePayload(i), ...changePayloads(i));
      payloads.length = 25;
      const outcomes = await adapter.send(encodeAll(adapter, payloads, format, context));
      expect(outcomes).toEqual(payloads.map(() => ({ status: 'delivered' })));
      const arrivals = await harness.arrivals(payloads.length);
      expect(arrivals.map((arrival) => documentKey(arrival.document)).sort()).toEqual(
        payloads.map((payload) => documentKey(expectedDocument(harness, payload, format))).sort(),
      );
      const sizes = harness.acceptedBatchSizes();
      if (sizes !== undefined) {
        // As few requests as the vendor's entry limit allows, none above it.
        expect(Math.max(...sizes)).toBeLessThanOrEqual(harness.vendorMaxBatchEntries);
        expect(sizes).toHaveLength(Math.ceil(payloads.length / Math.min(harness.vendorMaxBatchEntries, payloads.length)));
      }
    });

    it('replaces an oversized message by its payload-not-included form', async () => {
      const { adapter, context } = fresh();
      const payload = oversizedMessage(3, adapter.limits.maxMessageBytes + 1_000);
      const encoded = encodeAll(adapter, [payload], format, context);
      expect(encoded[0]?.payloadNotIncluded).toBe(true);
      expect(await adapter.send(encoded)).toEqual([{ status: 'delivered' }]);
      const [arrival] = await harness.arrivals(1);
      const expected = withoutMessagePayload(payload, adapter.limits.maxMessageBytes);
      expect(arrival?.document).toEqual(expectedDocument(harness, expected, format));
      expect(expected.payloadNotIncluded).toEqual({
        reason: `Payload exceeds destination size limit of ${adapter.limits.maxMessageBytes} bytes`,
        payloadType: 'BusinessUnitAssociatesSet',
      });
      expect(expected).not.toHaveProperty('associates');
      expect(expected).not.toHaveProperty('type');
    });
  });

  it('fails a message too large even without its payload as a payload error, without sending', () => {
    const { adapter, context } = fresh();
    const result = adapter.encode(hopelesslyLargeMessage(4, adapter.limits.maxMessageBytes + 10), defaultFormat, context);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.failure).toMatchObject({ class: 'payload', code: 'PayloadTooLarge' });
  });

  it('delivers the subscription test notification (§4.2)', async () => {
    const { destination, context } = fresh();
    const outcome = await sendTestNotification(pool, destination, defaultFormat, {
      projectKey: PROJECT_KEY,
      subscriptionId: context.subscriptionId,
      subscriptionKey: context.subscriptionKey,
      clock: { now: () => new Date('2025-05-06T07:08:09.000Z') },
    });
    expect(outcome).toEqual({ status: 'delivered' });
    const [arrival] = await harness.arrivals(1);
    const data = (defaultFormat.type === 'CloudEvents' ? (arrival?.document as { data: unknown }).data : arrival?.document) as Record<string, unknown>;
    expect(data).toMatchObject({
      notificationType: 'ResourceCreated',
      projectKey: PROJECT_KEY,
      resource: { typeId: 'subscription', id: context.subscriptionId },
      version: 1,
      modifiedAt: '2025-05-06T07:08:09.000Z',
    });
  });

  describe('failure classification', () => {
    it.each(FAULT_CLASSES.map((entry) => [entry.fault.kind, entry] as const))('%s', async (_kind, { fault, expected }) => {
      const { adapter, context } = fresh();
      harness.injectFault(fault);
      const outcomes = await adapter.send(encodeAll(adapter, [messagePayload(5), createdPayload0()], defaultFormat, context), { timeoutMs: 3_000 });
      expect(outcomes).toHaveLength(2);
      expect(outcomes.map((outcome) => failureOf(outcome).class)).toEqual([expected, expected]);
    });

    it('a hanging destination times out as temporary', async () => {
      const { adapter, context } = fresh();
      harness.injectFault({ kind: 'hang' });
      const outcomes = await adapter.send(encodeAll(adapter, [messagePayload(6)], defaultFormat, context), { timeoutMs: 700 });
      expect(failureOf(outcomes[0])).toEqual({ class: 'temporary', code: 'Timeout' });
    });

    it("a hanging destination times out while the caller's signal stays open, through garbage collections", async () => {
      const { adapter, context } = fresh();
      harness.injectFault({ kind: 'hang' });
      const running = new AbortController(); // a worker's stop signal: never aborted here
      const sending = adapter.send(encodeAll(adapter, [messagePayload(6)], defaultFormat, context), { timeoutMs: 700, signal: running.signal });
      for (let i = 0; i < 5; i++) {
        await new Promise((settle) => setTimeout(settle, 50));
        collectGarbage();
      }
      expect(failureOf((await sending)[0])).toEqual({ class: 'temporary', code: 'Timeout' });
    });

    it('an aborted send fails as temporary without sending', async () => {
      const { adapter, context } = fresh();
      const controller = new AbortController();
      controller.abort();
      const outcomes = await adapter.send(encodeAll(adapter, [messagePayload(7)], defaultFormat, context), { signal: controller.signal });
      expect(failureOf(outcomes[0])).toEqual({ class: 'temporary', code: 'Aborted' });
      expect(await harness.arrivals(0)).toEqual([]);
    });

    it('a deleted or unknown entity is a configuration error', async () => {
      const { destination, context } = fresh();
      const unknown = harness.unknownEntity(destination);
      const adapter = pool.get(unknown);
      const outcomes = await adapter.send(encodeAll(adapter, [messagePayload(8)], defaultFormat, context));
      expect(failureOf(outcomes[0]).class).toBe('configuration');
    });

    it('nothing listening at the endpoint (connection refused) is temporary', async () => {
      const { destination, context } = fresh();
      const closedPort = await closedLoopbackPort();
      const unreachable = harness.unreachable(destination, closedPort);
      const unreachablePool = new DestinationPool(createDestinationEnvironment({ ...unreachable.env, timeouts: { sendMs: 3_000 } }));
      try {
        const adapter = unreachablePool.get(unreachable.destination);
        const outcomes = await adapter.send(encodeAll(adapter, [messagePayload(11)], defaultFormat, context));
        expect(failureOf(outcomes[0]).class).toBe('temporary');
      } finally {
        await unreachablePool.closeAll();
      }
    });

    it.skipIf(harness.withBadCredentials === undefined)('credentials the destination refuses are a configuration error', async () => {
      const { destination, context } = fresh();
      const adapter = pool.get(harness.withBadCredentials?.(destination) ?? destination);
      const outcomes = await adapter.send(encodeAll(adapter, [messagePayload(9)], defaultFormat, context));
      expect(failureOf(outcomes[0]).class).toBe('configuration');
    });

    it.skipIf(harness.invalidNativeMessage === undefined)('an entry the destination rejects as invalid is a payload error; the rest is delivered', async () => {
      const { adapter, context } = fresh();
      const [valid] = encodeAll(adapter, [messagePayload(10)], defaultFormat, context);
      const invalid: EncodedMessage = { id: 'invalid', native: harness.invalidNativeMessage?.(), sizeBytes: 64, payloadNotIncluded: false };
      const outcomes = await adapter.send([valid as EncodedMessage, invalid]);
      expect(outcomes[0]).toEqual({ status: 'delivered' });
      expect(failureOf(outcomes[1]).class).toBe('payload');
      expect(await harness.arrivals(1)).toHaveLength(1);
    });
  });

  it.skipIf(harness.failEntries === undefined)('resends only the failed entries of a partial batch', async () => {
    const { adapter, context } = fresh();
    const payloads = [0, 1, 2, 3, 4].map((i) => messagePayload(20 + i));
    harness.failEntries?.([1, 3]);
    const outcomes = await adapter.send(encodeAll(adapter, payloads, defaultFormat, context));
    expect(outcomes).toEqual(payloads.map(() => ({ status: 'delivered' })));
    // First request: all five; second: only the two that failed.
    expect(harness.receivedBatchSizes?.()).toEqual([5, 2]);
    const arrivals = await harness.arrivals(5);
    expect(arrivals.map((arrival) => documentKey(arrival.document)).sort()).toEqual(
      payloads.map((payload) => documentKey(expectedDocument(harness, payload, defaultFormat))).sort(),
    );
  });
});

/** A loopback port nobody listens on: bound, then released. */
async function closedLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function createdPayload0(): DeliveryPayload {
  return changePayloads(0)[0] as DeliveryPayload;
}

/** The binding details each destination must carry beside the document (§2.4, §6.2). */
function checkBinding(harness: DestinationHarness, meta: Record<string, unknown>, payload: DeliveryPayload, format: Format, context: EncodeContext): void {
  const cloudEvents = format.type === 'CloudEvents';
  switch (harness.type) {
    case 'ProviderBServiceBus':
      expect(meta.contentType).toBe(cloudEvents ? 'application/cloudevents+json; charset=utf-8' : 'application/json');
      expect(meta.messageId).toBe(payload.notificationType === 'Message' ? payload.id : undefined);
      break;
    case 'ProviderCPubSub':
      expect(meta.attributes).toEqual(cloudEvents ? { 'content-type': 'application/cloudevents+json' } : {});
      break;
    case 'EventBridge':
      // Named after the subscription id, which, unlike its key, never changes (eventbridge/source-name.ts).
      expect(meta.Source).toBe(`aws.partner/herald/${PROJECT_KEY}/${context.subscriptionId}`);
      expect(meta.DetailType).toBe(payload.notificationType === 'Message' ? payload.type : payload.notificationType);
      break;
    default:
      break;
  }
}

/**
 * A full garbage collection. A deadline held only weakly (on Node 20, `AbortSignal.timeout` inside
 * `AbortSignal.any`, nodejs/node#57736) is collected by it and never fires.
 */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
