import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Format } from '@herald/model';
import { startEventGridPeer, type EventGridPeer } from '@herald/testkit';
import { EVENT_GRID_LIMITS } from '../../src/destinations/event-grid/encode.js';
import type { DestinationAdapter, EncodedMessage } from '../../src/destinations/port.js';
import { createDestinationEnvironment, DestinationPool } from '../../src/index.js';
import { messageOfFormattedBytes } from './support/payloads.js';

/**
 * Event Grid takes at most 1 MB (1,048,576 bytes) per publish request, and the SDK always
 * publishes a JSON array (`application/cloudevents-batch+json`), even of one event: the largest
 * event Herald may send is two bytes smaller, or the topic refuses the request with 413, a
 * `payload` error, and the message is dropped instead of going out as payload-not-included.
 */
const CLOUD_EVENTS: Format = { type: 'CloudEvents', cloudEventsVersion: '1.0' };
const REQUEST_LIMIT_BYTES = 1_048_576;
const SDK_DATA_CONTENT_TYPE_BYTES = Buffer.byteLength(',"datacontenttype":"application/json"');

describe('Event Grid adapter: events at the 1 MB request limit', () => {
  let peer: EventGridPeer;
  let pool: DestinationPool;
  let adapter: DestinationAdapter;

  beforeAll(async () => {
    peer = await startEventGridPeer();
    pool = new DestinationPool(createDestinationEnvironment({ allowInsecureConnections: true, timeouts: { sendMs: 10_000 } }));
    adapter = pool.get({ type: 'EventGrid', uri: peer.url, accessKey: peer.accessKey });
  });

  afterAll(async () => {
    await pool?.closeAll();
    await peer?.stop();
  });

  function encodeOfBytes(i: number, bytes: number): EncodedMessage {
    const encoded = adapter.encode(messageOfFormattedBytes(i, bytes, CLOUD_EVENTS), CLOUD_EVENTS, { subscriptionId: 'sub-1' });
    if (!encoded.ok) throw new Error(encoded.failure.message);
    return encoded.message;
  }

  it('sends an event of the whole request limit as payload-not-included, not into a refused request', async () => {
    const encoded = encodeOfBytes(1, REQUEST_LIMIT_BYTES);
    expect(encoded.payloadNotIncluded).toBe(true);
    expect(await adapter.send([encoded])).toEqual([{ status: 'delivered' }]);
    expect(peer.received).toHaveLength(1);
  });

  it('delivers an event of exactly the largest size in full: with the brackets, exactly the limit', async () => {
    expect(EVENT_GRID_LIMITS.maxMessageBytes).toBe(REQUEST_LIMIT_BYTES - 2);
    // Herald's event has no `datacontenttype`; the SDK writes one in: the largest event is that much smaller.
    const largest = EVENT_GRID_LIMITS.maxMessageBytes - SDK_DATA_CONTENT_TYPE_BYTES;
    expect(encodeOfBytes(3, largest + 1).payloadNotIncluded).toBe(true);
    const encoded = encodeOfBytes(2, largest);
    expect(encoded.payloadNotIncluded).toBe(false);
    expect(await adapter.send([encoded])).toEqual([{ status: 'delivered' }]);
    expect(peer.received).toHaveLength(2);
  });
});
