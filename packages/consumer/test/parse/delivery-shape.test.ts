import { deepStrictEqual } from 'node:assert/strict';
import { describe, expect, it } from 'vitest';
import { parseDelivery, type AnyDelivery, type ParseResult } from '../../src/index.js';
import { cloudEventOf, createdPayload, deletedPayload, messagePayload, updatedPayload } from '../support/fixtures.js';

/*
 * What users see of a delivery beyond its typed fields: a plain object, as the object literals of
 * earlier versions made it (their tests compare it with `toStrictEqual` / `deepStrictEqual`, log
 * it, hash its JSON), with the same keys in the same order. How the parser allocates it is its own
 * business.
 */

function delivered(result: ParseResult): AnyDelivery {
  if (result.kind !== 'delivery') throw new Error(`expected a delivery, got ${JSON.stringify(result)}`);
  return result.delivery;
}

const platformOrigin = {
  source: 'sqs',
  envelope: 'none',
  format: 'Platform',
  cloudEventsMode: undefined,
  cloudEvent: undefined,
  transportMessageId: undefined,
  sentAt: undefined,
  deliveryAttempt: undefined,
};

describe('a parsed delivery is a plain object', () => {
  it('a message: strictly equal to the literal, keys in order, payloadNotIncluded present', () => {
    const payload = messagePayload(1);
    const delivery = delivered(parseDelivery({ source: 'sqs', body: JSON.stringify(payload) }));
    const expected = { notificationType: 'Message', payload, payloadNotIncluded: undefined, payloadFetched: false, origin: platformOrigin };
    expect(delivery).toStrictEqual(expected);
    deepStrictEqual(delivery, expected);
    expect(Object.getPrototypeOf(delivery)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(delivery.origin)).toBe(Object.prototype);
    expect(Object.keys(delivery)).toEqual(['notificationType', 'payload', 'payloadNotIncluded', 'payloadFetched', 'origin']);
    expect('payloadNotIncluded' in delivery).toBe(true);
    expect(JSON.stringify(delivery)).toBe(JSON.stringify(expected));
    expect(structuredClone(delivery)).toStrictEqual(expected);
    expect({ ...delivery }).toStrictEqual(expected);
  });

  it.each([
    ['ResourceCreated', createdPayload(1)],
    ['ResourceUpdated', updatedPayload(1, 2)],
    ['ResourceDeleted', deletedPayload(2)],
  ])('a change (%s): strictly equal to the literal, keys in order', (notificationType, payload) => {
    const delivery = delivered(parseDelivery({ source: 'sqs', body: JSON.stringify(payload) }));
    const expected = { notificationType, payload, origin: platformOrigin };
    expect(delivery).toStrictEqual(expected);
    deepStrictEqual(delivery, expected);
    expect(Object.keys(delivery)).toEqual(['notificationType', 'payload', 'origin']);
    expect('payloadNotIncluded' in delivery).toBe(false);
    expect(JSON.stringify(delivery)).toBe(JSON.stringify(expected));
  });

  it('CloudEvents attributes: strictly equal to the literal, optional ones only when present', () => {
    const payload = messagePayload(3);
    const event = cloudEventOf(payload);
    const delivery = delivered(parseDelivery({ source: 'sqs', body: JSON.stringify(event) }));
    const attributes = {
      specversion: '1.0',
      id: event.id,
      type: event.type,
      source: event.source,
      subject: event.subject,
      time: event.time,
      datacontenttype: event.datacontenttype,
      sequence: event.sequence,
      sequencetype: event.sequencetype,
      dataref: event.dataref,
    };
    expect(delivery.origin.cloudEvent).toStrictEqual(attributes);
    deepStrictEqual(delivery.origin.cloudEvent, attributes);
    expect(Object.keys(delivery.origin.cloudEvent ?? {})).toEqual(Object.keys(attributes));
    expect(delivery.origin).toStrictEqual({ ...platformOrigin, format: 'CloudEvents', cloudEventsMode: 'structured', cloudEvent: attributes });

    const { subject: _subject, time: _time, datacontenttype: _type, sequence: _sequence, sequencetype: _sequencetype, dataref: _dataref, ...required } = event;
    const minimal = delivered(parseDelivery({ source: 'sqs', body: JSON.stringify(required) }));
    expect(minimal.origin.cloudEvent).toStrictEqual({ specversion: '1.0', id: event.id, type: event.type, source: event.source });
    expect('subject' in (minimal.origin.cloudEvent ?? {})).toBe(false);
  });
});
