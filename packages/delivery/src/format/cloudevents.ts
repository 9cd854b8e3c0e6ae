import { CloudEvent } from 'cloudevents';
import {
  cloudEventSource,
  cloudEventType,
  DEFAULT_CLOUDEVENTS_TYPE_PREFIX,
  messageDataRef,
  type DeliveryPayload,
} from '@herald/model';
import { deliveryId } from './delivery-id.js';

/** Media type of a structured-mode CloudEvent (CloudEvents JSON format §3). */
export const CLOUDEVENTS_JSON_CONTENT_TYPE = 'application/cloudevents+json';

/**
 * Builds the §6.2 CloudEvents 1.0 envelope with the `cloudevents` package, validation on. The
 * event is built once per delivery; the bindings serialise and measure that one object.
 *
 * - `id`: the delivery id (message id, or `<resourceId>-<notificationType>-<version>`)
 * - `type`: `<prefix>.<resourceTypeId>.message.<Type>` / `….change.<NotificationType>`
 * - `source`: `/<projectKey>/<resource path>/<id>`; `subject`: the resource id
 * - `time`: the resource's lastModifiedAt at trigger time (message `lastModifiedAt`, change `modifiedAt`)
 * - messages only: `sequence` (string) with `sequencetype` `Integer`, and `dataref` to the Messages API
 */
export function toCloudEvent(
  payload: DeliveryPayload,
  typePrefix: string = DEFAULT_CLOUDEVENTS_TYPE_PREFIX,
): CloudEvent<DeliveryPayload> {
  const common = {
    specversion: '1.0',
    id: deliveryId(payload),
    type: cloudEventType(payload, typePrefix),
    source: cloudEventSource(payload.projectKey, payload.resource.typeId, payload.resource.id),
    subject: payload.resource.id,
    datacontenttype: 'application/json',
    data: payload,
  } as const;
  if (payload.notificationType === 'Message') {
    return new CloudEvent<DeliveryPayload>({
      ...common,
      time: payload.lastModifiedAt,
      sequence: String(payload.sequenceNumber),
      sequencetype: 'Integer',
      dataref: messageDataRef(payload.projectKey, payload.id),
    });
  }
  return new CloudEvent<DeliveryPayload>({ ...common, time: payload.modifiedAt });
}
