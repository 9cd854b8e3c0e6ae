import { CloudEvent } from 'cloudevents';
import {
  cloudEventSource,
  cloudEventType,
  DEFAULT_CLOUDEVENTS_TYPE_PREFIX,
  messageDataRef,
  type DeliveryPayload,
  type HeraldCloudEvent,
} from '@herald/model';
import { deliveryId } from './delivery-id.js';

/** Media type of a structured-mode CloudEvent (CloudEvents JSON format §3). */
export const CLOUDEVENTS_JSON_CONTENT_TYPE = 'application/cloudevents+json';

/**
 * The §6.2 CloudEvents 1.0 envelope as plain data:
 *
 * - `id`: the delivery id (message id, or `<resourceId>-<notificationType>-<version>`)
 * - `type`: `<prefix>.<resourceTypeId>.message.<Type>` / `….change.<NotificationType>`
 * - `source`: `/<projectKey>/<resource path>/<id>`; `subject`: the resource id
 * - `time`: the resource's lastModifiedAt at trigger time (message `lastModifiedAt`, change `modifiedAt`)
 * - messages only: `sequence` (string) with `sequencetype` `Integer`, and `dataref` to the Messages API
 */
export function cloudEventAttributes(
  payload: DeliveryPayload,
  typePrefix: string = DEFAULT_CLOUDEVENTS_TYPE_PREFIX,
): HeraldCloudEvent {
  const common = {
    specversion: '1.0',
    id: deliveryId(payload),
    type: cloudEventType(payload, typePrefix),
    source: cloudEventSource(payload.projectKey, payload.resource.typeId, payload.resource.id),
    subject: payload.resource.id,
    datacontenttype: 'application/json',
  } as const;
  if (payload.notificationType === 'Message') {
    return {
      ...common,
      time: payload.lastModifiedAt,
      sequence: String(payload.sequenceNumber),
      sequencetype: 'Integer',
      dataref: messageDataRef(payload.projectKey, payload.id),
      data: payload,
    };
  }
  return { ...common, time: payload.modifiedAt, data: payload };
}

/** Builds the envelope with the `cloudevents` package, validation on (throws `ValidationError`). */
export function toCloudEvent(
  payload: DeliveryPayload,
  typePrefix: string = DEFAULT_CLOUDEVENTS_TYPE_PREFIX,
): CloudEvent<DeliveryPayload> {
  return new CloudEvent<DeliveryPayload>({ ...cloudEventAttributes(payload, typePrefix) });
}
