import type { DeliveryPayload } from './notifications.js';
import { resourcePathSegment } from './resource-types.js';

/** The CloudEvents type namespace the service uses (§6.2); configurable per deployment. */
export const DEFAULT_CLOUDEVENTS_TYPE_PREFIX = 'com.commercetools';

/** A CloudEvents 1.0 envelope as Herald produces it (§6.2 CloudEvents format). */
export interface HeraldCloudEvent {
  specversion: '1.0';
  id: string;
  type: string;
  source: string;
  subject: string;
  time: string;
  datacontenttype?: 'application/json';
  sequence?: string;
  sequencetype?: 'Integer';
  dataref?: string;
  data: DeliveryPayload;
}

/** `com.commercetools.<resourceTypeId>.message.<Type>` or `….change.<NotificationType>`. */
export function cloudEventType(payload: DeliveryPayload, prefix = DEFAULT_CLOUDEVENTS_TYPE_PREFIX): string {
  const typeId = payload.resource.typeId;
  if (payload.notificationType === 'Message') {
    const messageType = payload.type ?? payload.payloadNotIncluded?.payloadType ?? 'Unknown';
    return `${prefix}.${typeId}.message.${messageType}`;
  }
  return `${prefix}.${typeId}.change.${payload.notificationType}`;
}

/**
 * `source`: the default REST path of the resource type, including the project key, e.g.
 * `/my-shop/quote-requests` (§6.2 "REST path of the resource including the project key", read as
 * the official CloudEventsPayload type and its example define it: the collection, not the resource).
 * The resource's id is the event's `subject`; `source` + `id` is what identifies an event.
 */
export function cloudEventSource(projectKey: string, typeId: string): string {
  return `/${projectKey}/${resourcePathSegment(typeId)}`;
}

/** `dataref`: where the message can be fetched from the Messages API. */
export function messageDataRef(projectKey: string, messageId: string): string {
  return `/${projectKey}/messages/${messageId}`;
}
