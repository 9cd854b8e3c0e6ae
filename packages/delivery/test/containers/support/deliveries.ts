import type { DeliveryPayload, Format } from '@herald/model';
import { DEFAULT_CLOUDEVENTS_TYPE_PREFIX } from '@herald/model';
import { expect } from 'vitest';
import type { DestinationAdapter, EncodeContext, EncodedMessage } from '../../../src/destinations/port.js';
import { formatDelivery } from '../../../src/format/formatted.js';
import { changePayloads, messagePayload } from '../../destinations/support/payloads.js';

export const FORMATS: readonly (readonly [string, Format])[] = [
  ['Platform', { type: 'Platform' }],
  ['CloudEvents', { type: 'CloudEvents', cloudEventsVersion: '1.0' }],
];

export const CONTEXT: EncodeContext = { subscriptionId: '5f0e5a43-0000-4000-8000-00000000c0de' };

/** `count` deliveries: messages and the three kinds of change notification, mixed. */
export function somePayloads(count: number): DeliveryPayload[] {
  const payloads: DeliveryPayload[] = [];
  for (let i = 0; payloads.length < count; i++) payloads.push(messagePayload(i), ...changePayloads(i));
  return payloads.slice(0, count);
}

/** The document a consumer must receive for this payload in this format. */
export function expectedDocument(payload: DeliveryPayload, format: Format): unknown {
  return JSON.parse(formatDelivery(payload, format, { cloudEventsTypePrefix: DEFAULT_CLOUDEVENTS_TYPE_PREFIX }).json);
}

/** Order-insensitive comparison key of a JSON document (key order is not part of JSON's meaning). */
export function documentKey(document: unknown): string {
  return JSON.stringify(document, (_key, value: unknown) =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
}

export function encodeAll(adapter: DestinationAdapter, payloads: readonly DeliveryPayload[], format: Format): EncodedMessage[] {
  return payloads.map((payload) => {
    const result = adapter.encode(payload, format, CONTEXT);
    if (!result.ok) throw new Error(`encode failed: ${result.failure.message}`);
    return result.message;
  });
}

/** Asserts that what arrived is exactly what was sent, in any order. */
export function expectSameDocuments(arrived: readonly unknown[], payloads: readonly DeliveryPayload[], format: Format): void {
  expect(arrived.map(documentKey).sort()).toEqual(payloads.map((payload) => documentKey(expectedDocument(payload, format))).sort());
}

/**
 * Collects what `receive` returns until `count` items arrived. `receive` must block on the
 * transport (long polling, a receive wait): the loop waits on deliveries, not on timers.
 */
export async function collect<T>(count: number, receive: () => Promise<readonly T[]>, timeoutMs = 60_000): Promise<T[]> {
  const received: T[] = [];
  const deadline = Date.now() + timeoutMs;
  while (received.length < count) {
    if (Date.now() > deadline) throw new Error(`received ${received.length} of ${count} within ${timeoutMs} ms`);
    received.push(...(await receive()));
  }
  return received;
}
