import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import {
  createConsumer,
  MemoryDedupStore,
  parseDelivery,
  type AnyDelivery,
  type ParseError,
  type ParseResult,
  type SingleParseResult,
} from '../../src/index.js';
import { cloudEventOf, createdPayload, deletedPayload, eventBridgeEnvelopeOf, messagePayload, snsEnvelopeOf, updatedPayload } from '../support/fixtures.js';

function delivered(result: ParseResult): AnyDelivery {
  if (result.kind !== 'delivery') throw new Error(`expected a delivery, got ${JSON.stringify(result)}`);
  return result.delivery;
}

function failed(result: ParseResult): ParseError {
  if (result.kind !== 'error') throw new Error(`expected an error, got ${JSON.stringify(result)}`);
  return result.error;
}

function batchOf(result: ParseResult): readonly SingleParseResult[] {
  if (result.kind !== 'batch') throw new Error(`expected a batch, got ${JSON.stringify(result)}`);
  return result.items;
}

const message = messagePayload(3);
const messageJson = JSON.stringify(message);
const event = cloudEventOf(message);
const eventJson = JSON.stringify(event);

describe('raw Platform JSON', () => {
  it.each([
    ['a string', messageJson],
    ['a Buffer', Buffer.from(messageJson)],
    ['a Uint8Array', new TextEncoder().encode(messageJson)],
    ['an object', JSON.parse(messageJson) as object],
    ['a string with a byte order mark', `\uFEFF${messageJson}`],
  ])('parses a message given as %s', (_, body) => {
    const delivery = delivered(parseDelivery({ source: 'raw', body }));
    expect(delivery.notificationType).toBe('Message');
    expect(delivery.payload).toEqual(message);
    expect(delivery.origin).toMatchObject({ source: 'raw', envelope: 'none', format: 'Platform' });
  });

  it('types each change notification', () => {
    const created = delivered(parseDelivery({ source: 'sqs', body: JSON.stringify(createdPayload(1)) }));
    const updated = delivered(parseDelivery({ source: 'sqs', body: JSON.stringify(updatedPayload(1, 4)) }));
    const deleted = delivered(parseDelivery({ source: 'sqs', body: JSON.stringify(deletedPayload(4, {}, true)) }));
    expect(created.notificationType).toBe('ResourceCreated');
    expect(updated.notificationType === 'ResourceUpdated' && updated.payload.oldVersion).toBe(1);
    expect(deleted.notificationType === 'ResourceDeleted' && deleted.payload.dataErasure).toBe(true);
  });

  it('surfaces payloadNotIncluded', () => {
    const { type: _type, name: _name, ...withoutPayload } = message;
    const body = JSON.stringify({ ...withoutPayload, payloadNotIncluded: { reason: 'MessageTooLarge', payloadType: 'BusinessUnitNameChanged' } });
    const delivery = delivered(parseDelivery({ source: 'sqs', body }));
    expect(delivery.notificationType === 'Message' && delivery.payloadNotIncluded).toEqual({
      reason: 'MessageTooLarge',
      payloadType: 'BusinessUnitNameChanged',
    });
    expect(delivery.notificationType === 'Message' && delivery.payloadFetched).toBe(false);
  });

  it.each([
    ['bad JSON', '{"notificationType":', 'invalid-json', 'body'],
    ['an empty body', '', 'empty-body', 'body'],
    ['a JSON number', '42', 'unrecognized-shape', 'body'],
    ['an unknown object', '{"hello":"world"}', 'unrecognized-shape', 'body'],
    ['an unknown notificationType', JSON.stringify({ ...message, notificationType: 'Other' }), 'invalid-payload', 'body.notificationType'],
    ['a missing resource id', JSON.stringify({ ...message, resource: { typeId: 'business-unit' } }), 'invalid-payload', 'body.resource.id'],
    ['a zero sequenceNumber', JSON.stringify({ ...message, sequenceNumber: 0 }), 'invalid-payload', 'body.sequenceNumber'],
    ['a string version', JSON.stringify({ ...message, version: '1' }), 'invalid-payload', 'body.version'],
    ['a message without type or payloadNotIncluded', JSON.stringify({ ...message, type: undefined }), 'invalid-payload', 'body.type'],
    ['a missing projectKey', JSON.stringify({ ...message, projectKey: undefined }), 'invalid-payload', 'body.projectKey'],
    ['oldVersion not below version', JSON.stringify(updatedPayload(4, 4)), 'invalid-payload', 'body.oldVersion'],
    ['a non-boolean dataErasure', JSON.stringify({ ...deletedPayload(2), dataErasure: 'yes' }), 'invalid-payload', 'body.dataErasure'],
  ])('rejects %s with a typed error', (_, body, reason, path) => {
    const error = failed(parseDelivery({ source: 'sqs', body }));
    expect(error).toMatchObject({ reason, path, source: 'sqs' });
    expect(error.message.length).toBeGreaterThan(0);
  });
});

describe('CloudEvents structured mode', () => {
  it('parses the §6.2 envelope and keeps its attributes', () => {
    const delivery = delivered(parseDelivery({ source: 'sqs', body: eventJson }));
    expect(delivery.payload).toEqual(message);
    expect(delivery.origin).toMatchObject({ format: 'CloudEvents', cloudEventsMode: 'structured' });
    expect(delivery.origin.cloudEvent).toEqual({
      specversion: '1.0',
      id: event.id,
      type: 'com.commercetools.business-unit.message.BusinessUnitNameChanged',
      source: event.source,
      subject: 'bu-1',
      time: event.time,
      datacontenttype: 'application/json',
      sequence: '3',
      sequencetype: 'Integer',
      dataref: '/proj/messages/msg-bu-1-3',
    });
  });

  it('decodes data_base64', () => {
    const { data, ...attributes } = event;
    const body = JSON.stringify({ ...attributes, data_base64: Buffer.from(JSON.stringify(data)).toString('base64') });
    expect(delivered(parseDelivery({ source: 'raw', body })).payload).toEqual(message);
  });

  it.each([
    ['specversion 0.3', { ...event, specversion: '0.3' }, 'unsupported-specversion', 'body.specversion'],
    ['a numeric specversion', { ...event, specversion: 1 }, 'unsupported-specversion', 'body.specversion'],
    ['no id', { ...event, id: undefined }, 'missing-attribute', 'body.id'],
    ['an empty source', { ...event, source: '' }, 'invalid-attribute', 'body.source'],
    ['a numeric type', { ...event, type: 7 }, 'invalid-attribute', 'body.type'],
    ['a time that is not RFC 3339', { ...event, time: 'yesterday' }, 'invalid-attribute', 'body.time'],
    ['an XML datacontenttype', { ...event, datacontenttype: 'application/xml' }, 'unsupported-content-type', 'body.datacontenttype'],
    ['no data', { ...event, data: undefined }, 'missing-attribute', 'body.data'],
    ['data that is not a payload', { ...event, data: { hello: 1 } }, 'invalid-payload', 'body.data.notificationType'],
    ['a bad payload field', { ...event, data: { ...message, resource: { typeId: 'business-unit', id: 5 } } }, 'invalid-payload', 'body.data.resource.id'],
  ])('rejects %s', (_, body, reason, path) => {
    expect(failed(parseDelivery({ source: 'raw', body: JSON.stringify(body) }))).toMatchObject({ reason, path });
  });
});

describe('CloudEvents binary mode over HTTP', () => {
  const headers = {
    'ce-specversion': '1.0',
    'ce-id': event.id,
    'ce-type': event.type,
    'ce-source': event.source,
    'ce-subject': 'bu-1',
    'ce-time': '2025-01-01T00:00:00Z',
    'ce-sequence': '3',
    'content-type': 'application/json',
  };

  it('reads attributes from ce-* headers and the payload from the body', () => {
    const delivery = delivered(parseDelivery({ source: 'http', headers, body: Buffer.from(messageJson) }));
    expect(delivery.payload).toEqual(message);
    expect(delivery.origin).toMatchObject({ format: 'CloudEvents', cloudEventsMode: 'binary', cloudEvent: { id: event.id, sequence: '3', subject: 'bu-1' } });
  });

  it.each([
    ['a missing ce-id', { ...headers, 'ce-id': undefined }, messageJson, 'missing-attribute'],
    ['ce-specversion 0.3', { ...headers, 'ce-specversion': '0.3' }, messageJson, 'unsupported-specversion'],
    ['a text/plain body', { ...headers, 'content-type': 'text/plain' }, messageJson, 'unsupported-content-type'],
    ['bad JSON', headers, '{"notificationType"', 'invalid-json'],
    ['an empty body', headers, '', 'empty-body'],
  ])('rejects %s', (_, badHeaders, body, reason) => {
    expect(failed(parseDelivery({ source: 'http', headers: badHeaders, body }))).toMatchObject({ reason });
  });
});

describe('SNS envelope over SQS', () => {
  it('unwraps a Platform payload and takes the SNS timestamp as send time', () => {
    const delivery = delivered(parseDelivery({ source: 'sqs', body: snsEnvelopeOf(messageJson) }));
    expect(delivery.payload).toEqual(message);
    expect(delivery.origin).toMatchObject({ envelope: 'sns', format: 'Platform', sentAt: Date.parse('2025-01-01T00:00:01.000Z') });
  });

  it('unwraps a structured CloudEvent', () => {
    const delivery = delivered(parseDelivery({ source: 'sqs', body: snsEnvelopeOf(eventJson) }));
    expect(delivery.origin).toMatchObject({ envelope: 'sns', format: 'CloudEvents' });
  });

  it('takes a raw-delivery body as the payload itself', () => {
    expect(delivered(parseDelivery({ source: 'sqs', body: messageJson })).origin.envelope).toBe('none');
  });

  it('rejects a subscription confirmation and a Message that is not JSON', () => {
    const confirmation = JSON.stringify({ ...JSON.parse(snsEnvelopeOf(messageJson)), Type: 'SubscriptionConfirmation' });
    expect(failed(parseDelivery({ source: 'sqs', body: confirmation }))).toMatchObject({ reason: 'invalid-envelope', path: 'body.Type' });
    expect(failed(parseDelivery({ source: 'sqs', body: snsEnvelopeOf('not json') }))).toMatchObject({ reason: 'invalid-json', path: 'body.Message' });
    expect(failed(parseDelivery({ source: 'sqs', body: snsEnvelopeOf('{"x":1}') }))).toMatchObject({ reason: 'unrecognized-shape', path: 'body.Message' });
  });
});

describe('EventBridge envelope over SQS', () => {
  it('unwraps a Platform payload in detail', () => {
    const delivery = delivered(parseDelivery({ source: 'sqs', body: eventBridgeEnvelopeOf(message) }));
    expect(delivery.payload).toEqual(message);
    expect(delivery.origin).toMatchObject({ envelope: 'eventbridge', format: 'Platform', sentAt: Date.parse('2025-01-01T00:00:02Z') });
  });

  it('unwraps a structured CloudEvent in detail', () => {
    expect(delivered(parseDelivery({ source: 'sqs', body: eventBridgeEnvelopeOf(event) })).origin).toMatchObject({
      envelope: 'eventbridge',
      format: 'CloudEvents',
    });
  });

  it('rejects a detail that is not an object, and a bad payload inside', () => {
    const noDetail = JSON.stringify({ ...JSON.parse(eventBridgeEnvelopeOf(message)), detail: 'x' });
    expect(failed(parseDelivery({ source: 'sqs', body: noDetail }))).toMatchObject({ reason: 'invalid-envelope', path: 'body.detail' });
    const badPayload = eventBridgeEnvelopeOf({ ...message, sequenceNumber: -1 });
    expect(failed(parseDelivery({ source: 'sqs', body: badPayload }))).toMatchObject({ reason: 'invalid-payload', path: 'body.detail.sequenceNumber' });
  });
});

describe('Service Bus message', () => {
  it.each([
    ['an object (JSON decoded by the SDK)', message],
    ['a string', messageJson],
    ['bytes', Buffer.from(messageJson)],
  ])('parses a Platform body given as %s', (_, body) => {
    expect(delivered(parseDelivery({ source: 'service-bus', body, contentType: 'application/json' })).payload).toEqual(message);
  });

  it('parses a structured CloudEvent by content type', () => {
    const delivery = delivered(
      parseDelivery({ source: 'service-bus', body: Buffer.from(eventJson), contentType: 'application/cloudevents+json; charset=utf-8' }),
    );
    expect(delivery.origin).toMatchObject({ format: 'CloudEvents', cloudEventsMode: 'structured' });
  });

  it('parses binary mode from cloudEvents: application properties', () => {
    const delivery = delivered(
      parseDelivery({
        source: 'service-bus',
        body: message,
        contentType: 'application/json',
        applicationProperties: {
          'cloudEvents:specversion': '1.0',
          'cloudEvents:id': 'e-1',
          'cloudEvents:type': event.type,
          'cloudEvents:source': event.source,
          'cloudEvents:time': new Date('2025-01-01T00:00:00Z'),
        },
      }),
    );
    expect(delivery.origin).toMatchObject({ cloudEventsMode: 'binary', cloudEvent: { id: 'e-1', time: '2025-01-01T00:00:00.000Z' } });
  });

  it('rejects a structured content type with a Platform body, and bytes that are not JSON', () => {
    expect(failed(parseDelivery({ source: 'service-bus', body: message, contentType: 'application/cloudevents+json' }))).toMatchObject({
      reason: 'missing-attribute',
      path: 'body.specversion',
    });
    expect(failed(parseDelivery({ source: 'service-bus', body: Buffer.from([0x7b, 0x7b]) }))).toMatchObject({ reason: 'invalid-json' });
    expect(failed(parseDelivery({ source: 'service-bus', body: undefined }))).toMatchObject({ reason: 'empty-body' });
  });
});

describe('Event Grid push batch', () => {
  it('parses each CloudEvent of the array', () => {
    const second = cloudEventOf(messagePayload(4));
    const items = batchOf(parseDelivery({ source: 'event-grid', body: JSON.stringify([event, second]) }));
    expect(items.map((item) => item.kind === 'delivery' && item.delivery.notificationType === 'Message' && item.delivery.payload.sequenceNumber)).toEqual([
      3, 4,
    ]);
  });

  it('reports a bad event in its place without hiding the others', () => {
    const items = batchOf(parseDelivery({ source: 'event-grid', body: JSON.stringify([event, { ...event, specversion: '0.1' }]) }));
    expect(items[0]?.kind).toBe('delivery');
    expect(items[1]).toMatchObject({ kind: 'error', error: { reason: 'unsupported-specversion', path: 'body[1].specversion' } });
  });

  it('treats a single event as a batch of one; rejects an empty batch and bad JSON', () => {
    expect(batchOf(parseDelivery({ source: 'event-grid', body: eventJson }))).toHaveLength(1);
    expect(failed(parseDelivery({ source: 'event-grid', body: '[]' }))).toMatchObject({ reason: 'empty-body' });
    expect(failed(parseDelivery({ source: 'event-grid', body: '[{' }))).toMatchObject({ reason: 'invalid-json' });
  });

  it('parses a batch posted over HTTP by its content type', () => {
    const headers = { 'content-type': 'application/cloudevents-batch+json; charset=utf-8' };
    expect(batchOf(parseDelivery({ source: 'http', headers, body: Buffer.from(JSON.stringify([event])) }))).toHaveLength(1);
    expect(failed(parseDelivery({ source: 'http', headers, body: eventJson }))).toMatchObject({ reason: 'unrecognized-shape' });
  });
});

describe('Pub/Sub', () => {
  it('parses pulled data (structured content mode) and Platform data', () => {
    const structured = delivered(
      parseDelivery({ source: 'pubsub', data: Buffer.from(eventJson), attributes: { 'content-type': 'application/cloudevents+json' }, enqueuedAt: 5 }),
    );
    expect(structured.origin).toMatchObject({ source: 'pubsub', format: 'CloudEvents', sentAt: 5 });
    expect(delivered(parseDelivery({ source: 'pubsub', data: Buffer.from(messageJson) })).payload).toEqual(message);
  });

  it('parses binary mode from ce- attributes', () => {
    const attributes = { 'ce-specversion': '1.0', 'ce-id': 'e-2', 'ce-type': event.type, 'ce-source': event.source, 'content-type': 'application/json' };
    const delivery = delivered(parseDelivery({ source: 'pubsub', data: Buffer.from(messageJson), attributes }));
    expect(delivery.origin).toMatchObject({ cloudEventsMode: 'binary', cloudEvent: { id: 'e-2', datacontenttype: 'application/json' } });
  });

  it('parses a push body, from the push source and from plain HTTP', () => {
    const push = {
      message: { data: Buffer.from(eventJson).toString('base64'), attributes: {}, messageId: 'm-9', publishTime: '2025-01-01T00:00:03Z' },
      subscription: 'projects/p/subscriptions/s',
    };
    const delivery = delivered(parseDelivery({ source: 'pubsub-push', body: JSON.stringify(push) }));
    expect(delivery.origin).toMatchObject({ envelope: 'pubsub-push', transportMessageId: 'm-9', sentAt: Date.parse('2025-01-01T00:00:03Z') });
    expect(
      delivered(parseDelivery({ source: 'http', headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(push)) })).payload,
    ).toEqual(message);
  });

  it.each([
    ['pulled data that is not JSON', { source: 'pubsub', data: Buffer.from('nope') } as const, 'invalid-json'],
    ['a push without data', { source: 'pubsub-push', body: JSON.stringify({ message: { messageId: '1' }, subscription: 's' }) } as const, 'empty-body'],
    ['a push with bad base64', { source: 'pubsub-push', body: JSON.stringify({ message: { data: '%%%' }, subscription: 's' }) } as const, 'invalid-json'],
    ['a push body without message', { source: 'pubsub-push', body: '{"subscription":"s"}' } as const, 'invalid-envelope'],
  ])('rejects %s', (_, input, reason) => {
    expect(failed(parseDelivery(input))).toMatchObject({ reason });
  });
});

describe('user JSON shaped like an internal parse failure', () => {
  // §6.2: a message type's own fields sit at the payload's top level; one may be called "invalid".
  const payload = messagePayload(1, {}, { type: 'VatIdChecked', invalid: true } as object);

  it('parses a Message whose own fields include invalid: true, plain and as a CloudEvent', () => {
    expect(delivered(parseDelivery({ source: 'sqs', body: JSON.stringify(payload) })).payload).toEqual(payload);
    expect(delivered(parseDelivery({ source: 'sqs', body: JSON.stringify(cloudEventOf(payload)) })).payload).toEqual(payload);
  });

  it('hands it to the handler instead of dead-lettering it', async () => {
    const handled: AnyDelivery[] = [];
    const consumer = createConsumer({ dedup: new MemoryDedupStore(), handler: (delivery) => void handled.push(delivery) });
    expect((await consumer.process({ source: 'sqs', body: JSON.stringify(payload) })).action).toBe('ack');
    expect(handled).toHaveLength(1);
  });

  it('does not let a sender choose the reason (a label of herald_consumer_parse_errors_total)', async () => {
    expect(failed(parseDelivery({ source: 'raw', body: '{"invalid":true,"reason":"chosen","message":"x"}' })).reason).toBe('unrecognized-shape');
    const registry = new Registry();
    const consumer = createConsumer({ dedup: new MemoryDedupStore(), metrics: { registry }, handler: () => undefined });
    for (let index = 0; index < 20; index++) {
      await consumer.process({ source: 'http', headers: {}, body: JSON.stringify({ invalid: true, reason: `r${index}`, message: 'x' }) });
    }
    const series = (await registry.getSingleMetric('herald_consumer_parse_errors_total')?.get())?.values ?? [];
    expect(series.map((value) => value.labels.reason)).toEqual(['unrecognized-shape']);
  });
});
