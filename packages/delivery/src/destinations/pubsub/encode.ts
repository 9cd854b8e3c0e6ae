import type { DeliveryPayload, Format } from '@herald/model';
import { CLOUDEVENTS_JSON_CONTENT_TYPE } from '../../format/cloudevents.js';
import type { FormatOptions } from '../../format/formatted.js';
import { encodeWithFallback } from '../encode-pipeline.js';
import type { DestinationLimits, EncodeResult } from '../port.js';

/** Pub/Sub: 10 MB per message and per publish request, 1000 messages per request. */
export const PUBSUB_LIMITS: DestinationLimits = Object.freeze({
  maxMessageBytes: 10_000_000,
  maxBatchEntries: 1_000,
  maxBatchBytes: 10_000_000,
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

/** Pub/Sub counts the data plus every attribute key and value. */
export function encodePubSub(payload: DeliveryPayload, format: Format, options: FormatOptions): EncodeResult<PubSubNativeMessage> {
  return encodeWithFallback(payload, format, options, PUBSUB_LIMITS.maxMessageBytes, (formatted) => {
    const attributes = formatted.format === 'CloudEvents' ? STRUCTURED_ATTRIBUTES : PLATFORM_ATTRIBUTES;
    let sizeBytes = Buffer.byteLength(formatted.json);
    for (const [key, value] of Object.entries(attributes)) sizeBytes += Buffer.byteLength(key) + Buffer.byteLength(value);
    return { native: { data: formatted.json, attributes }, sizeBytes };
  });
}
