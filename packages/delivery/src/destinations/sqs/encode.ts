import type { DeliveryPayload, Format } from '@herald/model';
import type { FormatOptions } from '../../format/formatted.js';
import { withXmlSafeCharacters } from '../aws/xml-characters.js';
import { encodeWithFallback } from '../encode-pipeline.js';
import type { DestinationLimits, EncodeResult } from '../port.js';

/**
 * §2.4/§8: the queue's maximum message size must be the default 262144 bytes; SendMessageBatch
 * takes 10 entries whose sizes add up to at most that same limit.
 */
export const SQS_LIMITS: DestinationLimits = Object.freeze({
  maxMessageBytes: 262_144,
  maxBatchEntries: 10,
  maxBatchBytes: 262_144,
});

/** An SQS message: the JSON body (Platform payload, or structured-mode CloudEvent); no attributes. */
export interface SqsNativeMessage {
  body: string;
}

/** SQS counts the body plus message attributes; Herald sends no attributes. */
export function encodeSqs(payload: DeliveryPayload, format: Format, options: FormatOptions): EncodeResult<SqsNativeMessage> {
  return encodeWithFallback(payload, format, options, SQS_LIMITS.maxMessageBytes, (formatted) => {
    const body = withXmlSafeCharacters(formatted.json);
    return { native: { body }, sizeBytes: Buffer.byteLength(body) };
  });
}
