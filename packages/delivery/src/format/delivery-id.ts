import type { DeliveryPayload } from '@herald/model';

/**
 * A delivery's stable id, the same on every attempt (CloudEvents `id`, Service Bus `messageId`):
 * a message's own id, or `<resourceId>-<notificationType>-<version>` for a change (§6.2: a change is
 * identified by `resource.id` with `version`).
 */
export function deliveryId(payload: DeliveryPayload): string {
  if (payload.notificationType === 'Message') return payload.id;
  return `${payload.resource.id}-${payload.notificationType}-${payload.version}`;
}
