import type { DeliveryPayload, Format } from '@herald/model';
import { CloudEvent } from 'cloudevents';
import { CLOUDEVENTS_JSON_CONTENT_TYPE, cloudEventAttributes } from './cloudevents.js';
import { deliveryId } from './delivery-id.js';

export interface FormatOptions {
  /** §6.2 CloudEvents `type` namespace, `com.commercetools` by default. */
  cloudEventsTypePrefix: string;
}

/**
 * A subscription's format as one delivery is rendered in it. `messageRetrievable: false` marks a
 * message the Messages API does not have (the project kept no messages when it was written): its
 * CloudEvent then has no `dataref` (§6.2). Absent means retrievable; Platform has no `dataref` and
 * ignores it. The flag rides on the format because the format is the one per-delivery input that
 * every adapter (`DestinationAdapter.encode`) hands to the formatter unchanged, fallback included.
 */
export type DeliveryFormat = Format & { readonly messageRetrievable?: boolean };

/** One delivery rendered in its subscription's format, serialised once. */
export type FormattedDelivery = PlatformDelivery | CloudEventsDelivery;

interface FormattedCommon {
  /** The delivery's stable id. */
  id: string;
  /** The (possibly payload-not-included) payload that was formatted. */
  payload: DeliveryPayload;
  /** The JSON text of the whole body (Platform payload, or structured-mode CloudEvent). */
  json: string;
}

export interface PlatformDelivery extends FormattedCommon {
  format: 'Platform';
  contentType: 'application/json';
}

export interface CloudEventsDelivery extends FormattedCommon {
  format: 'CloudEvents';
  contentType: typeof CLOUDEVENTS_JSON_CONTENT_TYPE;
  event: CloudEvent<DeliveryPayload>;
}

/** Platform format (§6.2): the payload as is, as JSON. */
export function formatPlatform(payload: DeliveryPayload): PlatformDelivery {
  return {
    format: 'Platform',
    id: deliveryId(payload),
    payload,
    json: JSON.stringify(payload),
    contentType: 'application/json',
  };
}

/**
 * CloudEvents format (§6.2) in the JSON event format (structured mode). The event is constructed
 * once with the `cloudevents` package, validation on; the JSON is then written from the same
 * attributes it validated, not through `CloudEvent#toJSON` (which copies the event and re-parses
 * `time`, about half the cost of the whole step).
 */
export function formatCloudEvents(payload: DeliveryPayload, options: FormatOptions, messageRetrievable = true): CloudEventsDelivery {
  const attributes = cloudEventAttributes(payload, options.cloudEventsTypePrefix, messageRetrievable);
  const event = new CloudEvent<DeliveryPayload>({ ...attributes });
  return {
    format: 'CloudEvents',
    id: event.id,
    payload,
    json: JSON.stringify(attributes),
    contentType: CLOUDEVENTS_JSON_CONTENT_TYPE,
    event,
  };
}

export function formatDelivery(payload: DeliveryPayload, format: DeliveryFormat, options: FormatOptions): FormattedDelivery {
  return format.type === 'CloudEvents' ? formatCloudEvents(payload, options, format.messageRetrievable !== false) : formatPlatform(payload);
}
