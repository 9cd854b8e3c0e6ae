import type { DeliveryPayload, Format } from '@herald/model';
import { CLOUDEVENTS_JSON_CONTENT_TYPE } from '../../format/cloudevents.js';
import type { FormatOptions } from '../../format/formatted.js';
import { encodeWithFallback } from '../encode-pipeline.js';
import type { DestinationLimits, EncodeResult } from '../port.js';
import { PUBLISH_MESSAGES_ROOM_BYTES, publishedMessageBytes } from './publish-request-size.js';

/**
 * Pub/Sub: 10 MB per Publish request, 1000 messages. A message's size is its share of the request
 * (data and attributes with their framing), and one message alone must fit a request as well.
 */
export const PUBSUB_LIMITS: DestinationLimits = Object.freeze({
  maxMessageBytes: PUBLISH_MESSAGES_ROOM_BYTES,
  maxBatchEntries: 1_000,
  maxBatchBytes: PUBLISH_MESSAGES_ROOM_BYTES,
});

/**
 * A Pub/Sub message as plain data. With CloudEvents, the Pub/Sub protocol binding's structured
 * content mode: the event JSON as `data` and the `content-type` attribute.
 */
export interface PubSubNativeMessage {
  data: string;
  attributes: Record<string, string>;
}

const PLATFORM_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({});
const STRUCTURED_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({
  'content-type': CLOUDEVENTS_JSON_CONTENT_TYPE,
});

export function encodePubSub(payload: DeliveryPayload, format: Format, options: FormatOptions): EncodeResult<PubSubNativeMessage> {
  return encodeWithFallback(payload, format, options, PUBSUB_LIMITS.maxMessageBytes, (formatted) => {
    const attributes = formatted.format === 'CloudEvents' ? STRUCTURED_ATTRIBUTES : PLATFORM_ATTRIBUTES;
    return {
      native: { data: formatted.json, attributes },
      sizeBytes: publishedMessageBytes(Buffer.byteLength(formatted.json), attributes),
    };
  });
}
