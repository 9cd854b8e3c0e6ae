import type { DeliveryPayload, Format } from '@herald/model';
import type { FormatOptions } from '../../format/formatted.js';
import { withXmlSafeCharacters } from '../aws/xml-characters.js';
import { encodeWithFallback } from '../encode-pipeline.js';
import type { DestinationLimits, EncodeResult } from '../port.js';

/** SNS: 256 KiB per message (body plus attributes); PublishBatch takes 10 entries and 256 KiB in total. */
export const SNS_LIMITS: DestinationLimits = Object.freeze({
  maxMessageBytes: 262_144,
  maxBatchEntries: 10,
  maxBatchBytes: 262_144,
});

/** An SNS message: the JSON text (Platform payload, or structured-mode CloudEvent); no attributes. */
export interface SnsNativeMessage {
  message: string;
}

export function encodeSns(payload: DeliveryPayload, format: Format, options: FormatOptions): EncodeResult<SnsNativeMessage> {
  return encodeWithFallback(payload, format, options, SNS_LIMITS.maxMessageBytes, (formatted) => {
    const message = withXmlSafeCharacters(formatted.json);
    return { native: { message }, sizeBytes: Buffer.byteLength(message) };
  });
}
