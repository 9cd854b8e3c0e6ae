import { ValidationError } from 'cloudevents';
import type { DeliveryPayload, Format } from '@herald/model';
import { deliveryId } from '../format/delivery-id.js';
import { formatDelivery, type FormatOptions, type FormattedDelivery } from '../format/formatted.js';
import { withoutMessagePayload } from '../format/payload-not-included.js';
import { errorMessage, failure } from './failure.js';
import type { EncodeResult } from './port.js';

/** A destination's binding of a formatted delivery to its native message, with its measured size. */
export interface BoundMessage<TNative> {
  native: TNative;
  /** Bytes as the destination counts them against its per-message limit. */
  sizeBytes: number;
}

export type Bind<TNative> = (formatted: FormattedDelivery) => BoundMessage<TNative>;

/**
 * The encode step every adapter shares: format, bind, measure; when a message does not fit, the
 * §6.2 payload-not-included form; when even that does not fit, a `payload` failure. Changes carry
 * no message payload to leave out, so an oversized change fails at once.
 */
export function encodeWithFallback<TNative>(
  payload: DeliveryPayload,
  format: Format,
  options: FormatOptions,
  maxMessageBytes: number,
  bind: Bind<TNative>,
): EncodeResult<TNative> {
  try {
    const full = bind(formatDelivery(payload, format, options));
    const id = deliveryId(payload);
    if (full.sizeBytes <= maxMessageBytes) {
      return { ok: true, message: { id, native: full.native, sizeBytes: full.sizeBytes, payloadNotIncluded: false } };
    }
    if (payload.notificationType !== 'Message') return tooLarge(full.sizeBytes, maxMessageBytes);
    const stripped = bind(formatDelivery(withoutMessagePayload(payload, maxMessageBytes), format, options));
    if (stripped.sizeBytes > maxMessageBytes) return tooLarge(stripped.sizeBytes, maxMessageBytes);
    return {
      ok: true,
      message: { id, native: stripped.native, sizeBytes: stripped.sizeBytes, payloadNotIncluded: true },
    };
  } catch (error) {
    // Payloads come from our own store, so an invalid CloudEvent means data the format rejects
    // (e.g. an unusable resource id in `source`): not deliverable as is, but not a crash either.
    if (error instanceof ValidationError) {
      return { ok: false, failure: failure('payload', 'InvalidCloudEvent', errorMessage(error), { cause: error }) };
    }
    throw error;
  }
}

function tooLarge(sizeBytes: number, maxMessageBytes: number): EncodeResult<never> {
  return {
    ok: false,
    failure: failure(
      'payload',
      'PayloadTooLarge',
      `The delivery is ${sizeBytes} bytes, more than the destination's limit of ${maxMessageBytes} bytes, even without its payload`,
    ),
  };
}
