import { afterAll, describe, expect, it } from 'vitest';
import type { DeliveryPayload, Destination, Format } from '@herald/model';
import type { EncodedMessage } from '../../src/destinations/port.js';
import { toCloudEvent } from '../../src/format/cloudevents.js';
import { formatCloudEvents, formatDelivery, formatPlatform, type DeliveryFormat } from '../../src/format/formatted.js';
import { createDestinationEnvironment, DestinationPool } from '../../src/index.js';
import { changePayloads, messagePayload, oversizedMessage, PROJECT_KEY } from '../destinations/support/payloads.js';

/**
 * §6.2 CloudEvents `dataref`: "URI from which the message can be retrieved, messages only, if
 * messages are enabled". A message written while the project kept no messages is not in the
 * Messages API, so its event carries no `dataref`; everything else about the event is unchanged.
 */
const CLOUD_EVENTS: Format = { type: 'CloudEvents', cloudEventsVersion: '1.0' };
const RETRIEVABLE: DeliveryFormat = { ...CLOUD_EVENTS, messageRetrievable: true };
const UNRETRIEVABLE: DeliveryFormat = { ...CLOUD_EVENTS, messageRetrievable: false };
const OPTIONS = { cloudEventsTypePrefix: 'com.commercetools' };
const CONTEXT = { subscriptionId: '5f0e5a43-0000-4000-8000-000000000001', subscriptionKey: 'orders' };

const message = messagePayload(1);
const dataref = `/${PROJECT_KEY}/messages/${message.id}`;

const structured = (payload: DeliveryPayload, format: DeliveryFormat): Record<string, unknown> =>
  JSON.parse(formatDelivery(payload, format, OPTIONS).json) as Record<string, unknown>;

describe('CloudEvents dataref follows whether the message can be retrieved', () => {
  it('points at the Messages API for a retrievable message (the default, and messageRetrievable: true)', () => {
    expect(structured(message, CLOUD_EVENTS)).toMatchObject({ dataref, sequence: '2', sequencetype: 'Integer' });
    expect(structured(message, RETRIEVABLE)).toMatchObject({ dataref });
    expect(formatCloudEvents(message, OPTIONS).event.dataref).toBe(dataref);
    expect(toCloudEvent(message).dataref).toBe(dataref);
  });

  it('leaves dataref out, and nothing else, for a message the Messages API does not have', () => {
    const { dataref: kept, ...rest } = structured(message, CLOUD_EVENTS);
    expect(kept).toBe(dataref);
    const event = structured(message, UNRETRIEVABLE);
    expect(event).not.toHaveProperty('dataref');
    expect(event).toEqual(rest);
    // The event object the bindings read attributes from agrees with the JSON.
    const formatted = formatCloudEvents(message, OPTIONS, false);
    expect(formatted.event.dataref).toBeUndefined();
    expect(formatted.event.validate()).toBe(true);
    expect(toCloudEvent(message, OPTIONS.cloudEventsTypePrefix, false).dataref).toBeUndefined();
  });

  it('changes never have dataref, whatever the flag says', () => {
    for (const change of changePayloads(2)) {
      expect(structured(change, CLOUD_EVENTS)).not.toHaveProperty('dataref');
      expect(structured(change, UNRETRIEVABLE)).toEqual(structured(change, CLOUD_EVENTS));
    }
  });

  it('the Platform format has no dataref and does not change', () => {
    const platform: DeliveryFormat = { type: 'Platform', messageRetrievable: false };
    expect(formatDelivery(message, platform, OPTIONS).json).toBe(formatPlatform(message).json);
    expect(JSON.parse(formatDelivery(message, platform, OPTIONS).json)).toEqual(message);
  });
});

/**
 * What the sender does: `adapter.encode(payload, format, context)` on the pooled adapter of each
 * destination type. The format must reach the formatter as it is, in the payload-not-included
 * fallback too. Encoding is pure, so no destination is contacted.
 */
const DESTINATIONS: readonly [string, Destination, (native: unknown) => Record<string, unknown>][] = [
  [
    'SQS',
    { type: 'SQS', queueUrl: 'http://127.0.0.1:1/000000000000/q', accessKey: 'test', accessSecret: 'test', region: 'us-east-1' },
    (native) => parse((native as { body: string }).body),
  ],
  [
    'SNS',
    { type: 'SNS', topicArn: 'arn:aws:sns:us-east-1:000000000000:t', accessKey: 'test', accessSecret: 'test' },
    (native) => parse((native as { message: string }).message),
  ],
  ['EventBridge', { type: 'EventBridge', region: 'us-east-1', accountId: '000000000000' }, (native) => parse((native as { detail: string }).detail)],
  [
    'ProviderBServiceBus',
    {
      type: 'ProviderBServiceBus',
      connectionString: 'Endpoint=sb://herald-test.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey=c2VjcmV0;EntityPath=q',
    },
    (native) => parse(String((native as { body: string | Buffer }).body)),
  ],
  [
    'EventGrid',
    { type: 'EventGrid', uri: 'https://herald-test.westeurope-1.eventgrid.azure.net/api/events', accessKey: 'c2VjcmV0' },
    // Event Grid's native schema carries the extension attributes beside the spec attributes.
    (native) => {
      const { extensionAttributes, ...attributes } = native as { extensionAttributes: Record<string, string> };
      return { ...attributes, ...extensionAttributes };
    },
  ],
  ['ProviderCPubSub', { type: 'ProviderCPubSub', projectId: 'herald-test', topic: 't' }, (native) => parse(String((native as { data: string | Buffer }).data))],
];

function parse(json: string): Record<string, unknown> {
  return JSON.parse(json) as Record<string, unknown>;
}

describe.each(DESTINATIONS)('the %s adapter passes the per-delivery format to the formatter', (_type, destination, eventOf) => {
  const pool = new DestinationPool(createDestinationEnvironment({ ...OPTIONS }));
  afterAll(() => pool.closeAll());

  function encoded(payload: DeliveryPayload, format: DeliveryFormat): EncodedMessage {
    const result = pool.get(destination).encode(payload, format, CONTEXT);
    if (!result.ok) throw new Error(result.failure.message);
    return result.message;
  }

  it('with dataref for a retrievable message, without for one that is not', () => {
    expect(eventOf(encoded(message, CLOUD_EVENTS).native)).toMatchObject({ id: message.id, dataref, sequence: '2' });
    const without = eventOf(encoded(message, UNRETRIEVABLE).native);
    expect(without).toMatchObject({ id: message.id, sequence: '2', sequencetype: 'Integer' });
    expect(without).not.toHaveProperty('dataref');
  });

  it('in the payload-not-included fallback as well', () => {
    const limit = pool.get(destination).limits.maxMessageBytes;
    const large = oversizedMessage(3, limit + 1_000);
    const retrievable = encoded(large, CLOUD_EVENTS);
    expect(retrievable.payloadNotIncluded).toBe(true);
    expect(eventOf(retrievable.native)).toMatchObject({ dataref: `/${PROJECT_KEY}/messages/${large.id}` });
    const unretrievable = encoded(large, UNRETRIEVABLE);
    expect(unretrievable.payloadNotIncluded).toBe(true);
    const event = eventOf(unretrievable.native);
    expect(event).toMatchObject({ data: { payloadNotIncluded: { payloadType: large.type } } });
    expect(event).not.toHaveProperty('dataref');
  });
});
