import { CloudEvent } from 'cloudevents';
import { cloudEventSource, cloudEventType, DEFAULT_CLOUDEVENTS_TYPE_PREFIX, messageDataRef, type DeliveryPayload, type HeraldCloudEvent } from '@herald/model';
import { deliveryId } from './delivery-id.js';

/** Media type of a structured-mode CloudEvent (CloudEvents JSON format §3). */
export const CLOUDEVENTS_JSON_CONTENT_TYPE = 'application/cloudevents+json';

/**
 * The §6.2 CloudEvents 1.0 envelope as plain data:
 *
 * - `id`: the delivery id (message id, or `<resourceId>-<notificationType>-<version>`)
 * - `type`: `<prefix>.<resourceTypeId>.message.<Type>` / `….change.<NotificationType>`
 * - `source`: `/<projectKey>/<resource path>`, the resource type's collection (reference
 *   CloudEventsPayload and its example); `subject`: the resource id
 * - `time`: the resource's lastModifiedAt at trigger time (message `lastModifiedAt`, change `modifiedAt`)
 * - no `datacontenttype`: neither §6.2 nor the reference CloudEventsPayload has it, and in the JSON
 *   event format `data` holding JSON needs none (CloudEvents JSON format §3.1)
 * - messages only: `sequence` (string) with `sequencetype` `Integer`, and `dataref` to the Messages API
 *   unless `messageRetrievable` is false: §6.2 gives `dataref` only "if messages are enabled", and a
 *   message written while they were not is not in the Messages API (the link would answer 404)
 */
export function cloudEventAttributes(
  payload: DeliveryPayload,
  typePrefix: string = DEFAULT_CLOUDEVENTS_TYPE_PREFIX,
  messageRetrievable = true,
): HeraldCloudEvent {
  const common = {
    specversion: '1.0',
    id: deliveryId(payload),
    type: cloudEventType(payload, typePrefix),
    source: cloudEventSource(payload.projectKey, payload.resource.typeId),
    subject: payload.resource.id,
  } as const;
  if (payload.notificationType === 'Message') {
    const time = payload.lastModifiedAt;
    const sequence = String(payload.sequenceNumber);
    // Two literals rather than adding `dataref` afterwards: the attributes keep one order (the JSON
    // is written from them) and one object shape on the hot path.
    return messageRetrievable
      ? { ...common, time, sequence, sequencetype: 'Integer', dataref: messageDataRef(payload.projectKey, payload.id), data: payload }
      : { ...common, time, sequence, sequencetype: 'Integer', data: payload };
  }
  return { ...common, time: payload.modifiedAt, data: payload };
}

/** Builds the envelope with the `cloudevents` package, validation on (throws `ValidationError`). */
export function toCloudEvent(
  payload: DeliveryPayload,
  typePrefix: string = DEFAULT_CLOUDEVENTS_TYPE_PREFIX,
  messageRetrievable = true,
): CloudEvent<DeliveryPayload> {
  return new CloudEvent<DeliveryPayload>({ ...cloudEventAttributes(payload, typePrefix, messageRetrievable) });
}
