import type { DeliveryPayload, Format } from '@herald/model';
import type { FormatOptions } from '../../format/formatted.js';
import { encodeWithFallback } from '../encode-pipeline.js';
import type { DestinationLimits, EncodeResult } from '../port.js';

/**
 * Service Bus standard tier: 256 KB per message, headers included. A batch is as large as the
 * sender link allows (`tryAddMessage` decides); the byte bound here only caps one request's plan.
 */
export const SERVICE_BUS_LIMITS: DestinationLimits = Object.freeze({
  maxMessageBytes: 262_144,
  maxBatchEntries: 4_500,
  maxBatchBytes: 262_144,
});

/**
 * AMQP framing, system properties and annotations the SDK adds around the body; a conservative
 * allowance so a message measured to fit also fits the link's `max_message_size`.
 */
const ENVELOPE_ALLOWANCE_BYTES = 512;

/** CloudEvents AMQP binding, structured mode: the event JSON as body with this content type. */
export const STRUCTURED_CONTENT_TYPE = 'application/cloudevents+json; charset=utf-8';

/** A Service Bus message as plain data; the body is sent as raw bytes (one AMQP data section). */
export interface ServiceBusNativeMessage {
  body: string;
  contentType: string;
  messageId: string;
}

export function encodeServiceBus(payload: DeliveryPayload, format: Format, options: FormatOptions): EncodeResult<ServiceBusNativeMessage> {
  return encodeWithFallback(payload, format, options, SERVICE_BUS_LIMITS.maxMessageBytes, (formatted) => {
    const contentType = formatted.format === 'CloudEvents' ? STRUCTURED_CONTENT_TYPE : 'application/json';
    return {
      native: { body: formatted.json, contentType, messageId: formatted.id },
      sizeBytes: Buffer.byteLength(formatted.json) + contentType.length + formatted.id.length + ENVELOPE_ALLOWANCE_BYTES,
    };
  });
}
