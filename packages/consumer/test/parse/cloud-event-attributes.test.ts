import { describe, expect, it } from 'vitest';
import { parseDelivery, type AnyDelivery, type ParseResult } from '../../src/index.js';
import { cloudEventOf, messagePayload } from '../support/fixtures.js';

/*
 * CloudEvents attributes are kept as sent: extension attributes (CloudEvents 1.0 §3.3) on the
 * delivery's origin, and a binary-mode `time` exactly as its header said (not re-rendered in UTC
 * with milliseconds).
 */

const message = messagePayload(3);
const event = cloudEventOf(message);
const TIME = '2025-01-01T10:00:00.123456+02:00';

function delivered(result: ParseResult): AnyDelivery {
  if (result.kind !== 'delivery') throw new Error(`expected a delivery, got ${JSON.stringify(result)}`);
  return result.delivery;
}

describe('CloudEvents extension attributes and time', () => {
  it('keeps the extension attributes of a structured event', () => {
    const body = JSON.stringify({
      ...event,
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      partitionkey: 'bu-1',
      priority: 3,
      replayed: false,
      ignoredObject: { a: 1 },
    });
    const origin = delivered(parseDelivery({ source: 'sqs', body })).origin;
    expect(origin.cloudEvent?.extensions).toEqual({
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      partitionkey: 'bu-1',
      priority: 3,
      replayed: false,
    });
  });

  it('adds no extensions key to an event without any', () => {
    const origin = delivered(parseDelivery({ source: 'sqs', body: JSON.stringify(event) })).origin;
    expect(origin.cloudEvent).not.toHaveProperty('extensions');
  });

  it('keeps the extension attributes and the exact time of an HTTP binary-mode event', () => {
    const headers = {
      'ce-specversion': '1.0',
      'ce-id': event.id,
      'ce-type': event.type,
      'ce-source': event.source,
      'ce-time': TIME,
      'ce-traceparent': '00-abc-def-01',
      'content-type': 'application/json',
    };
    const origin = delivered(parseDelivery({ source: 'http', headers, body: JSON.stringify(message) })).origin;
    expect(origin).toMatchObject({ cloudEventsMode: 'binary', cloudEvent: { time: TIME, extensions: { traceparent: '00-abc-def-01' } } });
  });

  it('keeps the extension attributes and the exact time of Pub/Sub and Service Bus binary-mode events', () => {
    const pubsub = delivered(
      parseDelivery({
        source: 'pubsub',
        data: Buffer.from(JSON.stringify(message)),
        attributes: {
          'ce-specversion': '1.0',
          'ce-id': event.id,
          'ce-type': event.type,
          'ce-source': event.source,
          'ce-time': TIME,
          'ce-partitionkey': 'bu-1',
        },
      }),
    ).origin;
    expect(pubsub.cloudEvent).toMatchObject({ time: TIME, extensions: { partitionkey: 'bu-1' } });
    const serviceBus = delivered(
      parseDelivery({
        source: 'service-bus',
        body: message,
        applicationProperties: {
          'cloudEvents:specversion': '1.0',
          'cloudEvents:id': event.id,
          'cloudEvents:type': event.type,
          'cloudEvents:source': event.source,
          'cloudEvents:time': TIME,
          'cloudEvents:traceparent': '00-x',
        },
      }),
    ).origin;
    expect(serviceBus.cloudEvent).toMatchObject({ time: TIME, extensions: { traceparent: '00-x' } });
  });

  it('still refuses a binary-mode time that is not RFC 3339', () => {
    const headers = {
      'ce-specversion': '1.0',
      'ce-id': event.id,
      'ce-type': event.type,
      'ce-source': event.source,
      'ce-time': 'yesterday',
      'content-type': 'application/json',
    };
    expect(parseDelivery({ source: 'http', headers, body: JSON.stringify(message) })).toMatchObject({ kind: 'error', error: { reason: 'invalid-attribute' } });
  });
});
