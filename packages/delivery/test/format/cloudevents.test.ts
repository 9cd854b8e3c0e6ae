import { CloudEvent, HTTP } from 'cloudevents';
import { describe, expect, it } from 'vitest';
import type { DeliveryPayload, Format } from '@herald/model';
import { encodeEventBridge } from '../../src/destinations/eventbridge/encode.js';
import { encodeEventGrid } from '../../src/destinations/event-grid/encode.js';
import type { EncodeResult } from '../../src/destinations/port.js';
import { encodePubSub } from '../../src/destinations/pubsub/encode.js';
import { encodeServiceBus } from '../../src/destinations/service-bus/encode.js';
import { encodeSns } from '../../src/destinations/sns/encode.js';
import { encodeSqs } from '../../src/destinations/sqs/encode.js';
import { toCloudEvent } from '../../src/format/cloudevents.js';
import { formatCloudEvents } from '../../src/format/formatted.js';
import { changePayloads, messagePayload, oversizedMessage } from '../destinations/support/payloads.js';

const FORMAT: Format = { type: 'CloudEvents', cloudEventsVersion: '1.0' };
const OPTIONS = { cloudEventsTypePrefix: 'com.commercetools' };
const CONTEXT = { subscriptionId: '5f0e5a43-0000-4000-8000-000000000001', subscriptionKey: 'orders' };

const PAYLOADS: readonly [string, DeliveryPayload][] = [
  ['message', messagePayload(1)],
  ['ResourceCreated', changePayloads(2)[0] as DeliveryPayload],
  ['ResourceUpdated', changePayloads(3)[1] as DeliveryPayload],
  ['ResourceDeleted', changePayloads(4)[2] as DeliveryPayload],
  ['payload-not-included message', oversizedMessage(5, 300_000)],
];

function encoded<T>(result: EncodeResult<T>): T {
  if (!result.ok) throw new Error(result.failure.message);
  return result.message.native;
}

/** The structured-mode body each binding carries (CloudEvents JSON format), as a consumer receives it. */
const JSON_BODY_BINDINGS: readonly [string, (payload: DeliveryPayload) => { body: string; contentType: string }][] = [
  ['SQS body', (p) => ({ body: encoded(encodeSqs(p, FORMAT, OPTIONS)).body, contentType: 'application/cloudevents+json' })],
  ['SNS message', (p) => ({ body: encoded(encodeSns(p, FORMAT, OPTIONS)).message, contentType: 'application/cloudevents+json' })],
  [
    'EventBridge Detail',
    (p) => ({
      body: encoded(encodeEventBridge(p, FORMAT, CONTEXT, { ...OPTIONS, partnerName: 'herald' })).detail,
      contentType: 'application/cloudevents+json',
    }),
  ],
  [
    'Service Bus body (structured mode)',
    (p) => {
      const message = encoded(encodeServiceBus(p, FORMAT, OPTIONS));
      return { body: message.body, contentType: message.contentType };
    },
  ],
  [
    'Pub/Sub data (structured content mode)',
    (p) => {
      const message = encoded(encodePubSub(p, FORMAT, OPTIONS));
      return { body: message.data, contentType: message.attributes['content-type'] ?? '' };
    },
  ],
];

/** Parses like a CloudEvents HTTP receiver in structured mode; the package validates (strict). */
function parseStructured(body: string, contentType: string): CloudEvent<unknown> {
  const event = HTTP.toEvent({ headers: { 'content-type': contentType }, body });
  if (Array.isArray(event)) throw new Error('expected a single event');
  const single = event as CloudEvent<unknown>;
  expect(single.validate()).toBe(true);
  return single;
}

function expectSpecAttributes(event: CloudEvent<unknown>, payload: DeliveryPayload): void {
  const delivered = event.data as DeliveryPayload;
  expect(event.specversion).toBe('1.0');
  expect(event.subject).toBe(payload.resource.id);
  // The resource type's collection, as the reference CloudEventsPayload example has it; the id is `subject`.
  expect(event.source).toBe(`/${payload.projectKey}/${pathOf(payload.resource.typeId)}`);
  if (payload.notificationType === 'Message') {
    expect(event.id).toBe(payload.id);
    expect(event.type).toBe(`com.commercetools.${payload.resource.typeId}.message.${payload.type ?? ''}`);
    expect(event.time).toBe(payload.lastModifiedAt);
    expect(event.sequence).toBe(String(payload.sequenceNumber));
    expect(event.sequencetype).toBe('Integer');
    expect(event.dataref).toBe(`/${payload.projectKey}/messages/${payload.id}`);
    expect(delivered.notificationType).toBe('Message');
  } else {
    expect(event.id).toBe(`${payload.resource.id}-${payload.notificationType}-${payload.version}`);
    expect(event.type).toBe(`com.commercetools.${payload.resource.typeId}.change.${payload.notificationType}`);
    expect(event.time).toBe(payload.modifiedAt);
    expect(event.sequence).toBeUndefined();
    expect(event.dataref).toBeUndefined();
    expect(delivered).toEqual(payload);
  }
}

/** The properties of the reference's CloudEventsPayload type. */
const REFERENCE_FIELDS: ReadonlySet<string> = new Set([
  'specversion',
  'id',
  'type',
  'source',
  'subject',
  'time',
  'sequence',
  'sequencetype',
  'dataref',
  'data',
]);

const pathOf = (typeId: string): string => (typeId.endsWith('s') ? typeId : `${typeId}s`);

describe('CloudEvents produced by every binding parse with the cloudevents package (validation on)', () => {
  describe.each(JSON_BODY_BINDINGS)('%s', (_binding, bodyOf) => {
    it.each(PAYLOADS)('%s', (_kind, payload) => {
      const { body, contentType } = bodyOf(payload);
      expect(contentType.startsWith('application/cloudevents+json')).toBe(true);
      const event = parseStructured(body, contentType);
      expectSpecAttributes(event, payload);
      // The JSON body form also constructs directly, strict.
      expect(() => new CloudEvent(JSON.parse(body) as Record<string, unknown>, true)).not.toThrow();
      // Only the fields of the reference type CloudEventsPayload (no `datacontenttype`).
      expect(Object.keys(JSON.parse(body) as object).filter((name) => !REFERENCE_FIELDS.has(name))).toEqual([]);
    });
  });

  describe("Event Grid's native CloudEvents schema", () => {
    it.each(PAYLOADS)('%s', (_kind, payload) => {
      const native = encoded(encodeEventGrid(payload, FORMAT, OPTIONS));
      // What the SDK puts in the `application/cloudevents-batch+json` array: spec attributes with
      // the extension attributes beside them (CloudEvents JSON format §4, batches).
      const { extensionAttributes, ...attributes } = native;
      const wire = JSON.stringify([{ specversion: '1.0', ...attributes, ...extensionAttributes }]);
      const events = HTTP.toEvent({ headers: { 'content-type': 'application/cloudevents-batch+json' }, body: wire });
      if (!Array.isArray(events)) throw new Error('expected a batch');
      expect(events).toHaveLength(1);
      const event = events[0] as CloudEvent<unknown>;
      expect(event.validate()).toBe(true);
      expectSpecAttributes(event, payload);
    });
  });

  it('HTTP structured mode: the serialised event round-trips through HTTP.structured and HTTP.toEvent', () => {
    for (const [, payload] of PAYLOADS) {
      const message = HTTP.structured(toCloudEvent(payload));
      const event = HTTP.toEvent(message) as CloudEvent<unknown>;
      expectSpecAttributes(event, payload);
    }
  });

  it('the type prefix is configurable', () => {
    const formatted = formatCloudEvents(messagePayload(1), { cloudEventsTypePrefix: 'org.example.herald' });
    expect(formatted.event.type).toBe('org.example.herald.business-unit.message.BusinessUnitNameChanged');
  });

  it('a payload-not-included message keeps its type from payloadType', () => {
    const native = encoded(encodeSqs(oversizedMessage(6, 300_000), FORMAT, OPTIONS));
    const event = parseStructured(native.body, 'application/cloudevents+json');
    expect(event.type).toBe('com.commercetools.business-unit.message.BusinessUnitAssociatesSet');
    expect((event.data as { payloadNotIncluded?: unknown }).payloadNotIncluded).toEqual({
      reason: 'Payload exceeds destination size limit of 262144 bytes',
      payloadType: 'BusinessUnitAssociatesSet',
    });
  });
});
