import type { DeliveryPayload, Format } from '@herald/model';
import type { FormatOptions } from '../../format/formatted.js';
import { encodeWithFallback } from '../encode-pipeline.js';
import type { DestinationLimits, EncodeContext, EncodeResult } from '../port.js';
import { partnerEventSourceName } from './source-name.js';

/**
 * PutPartnerEvents: up to 20 entries per call, each entry under 256 KB as EventBridge counts it;
 * the request as a whole has no separate byte limit beyond the entries'.
 */
export const EVENTBRIDGE_LIMITS: DestinationLimits = Object.freeze({
  // "The total entry size must be less than 256KB" (the entry-size guide; the API reference says
  // "maximum 256 KB"): the stricter reading, so an entry of exactly 262,144 bytes goes without payload.
  maxMessageBytes: 262_143,
  maxBatchEntries: 20,
  maxBatchBytes: 262_144,
});

/** Bytes EventBridge counts for a present `Time` (its "calculating event entry size" rule). */
const TIME_BYTES = 14;

/** A PutPartnerEvents entry as plain data (`time` is converted to a Date when sent). */
export interface EventBridgeNativeEntry {
  source: string;
  detailType: string;
  /** The JSON object text: the Platform payload, or the structured-mode CloudEvent. */
  detail: string;
  time: string;
}

/** Messages are typed by their message type, changes by their notification type. */
export function detailTypeOf(payload: DeliveryPayload): string {
  if (payload.notificationType !== 'Message') return payload.notificationType;
  return payload.type ?? payload.payloadNotIncluded?.payloadType ?? 'Message';
}

export function encodeEventBridge(
  payload: DeliveryPayload,
  format: Format,
  context: EncodeContext,
  options: FormatOptions & { partnerName: string },
): EncodeResult<EventBridgeNativeEntry> {
  const source = partnerEventSourceName(options.partnerName, payload.projectKey, context.subscriptionId);
  const time = payload.notificationType === 'Message' ? payload.lastModifiedAt : payload.modifiedAt;
  const fixedBytes = TIME_BYTES + Buffer.byteLength(source);
  return encodeWithFallback(payload, format, options, EVENTBRIDGE_LIMITS.maxMessageBytes, (formatted) => {
    const detailType = detailTypeOf(formatted.payload);
    return {
      native: { source, detailType, detail: formatted.json, time },
      sizeBytes: fixedBytes + Buffer.byteLength(detailType) + Buffer.byteLength(formatted.json),
    };
  });
}
