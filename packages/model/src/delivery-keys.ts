import type { DeliveryPayload } from './notifications.js';

/**
 * §6.2 delivery guarantees: duplicates are possible and order is not guaranteed. These keys are
 * what a consumer deduplicates and orders by.
 *
 *   messages: `{prefix}:{projectKey}:{typeId}:{resourceId}:m:{sequenceNumber}`
 *   changes:  `{prefix}:{projectKey}:{typeId}:{resourceId}:c:{notificationType}:{version}`
 */
/** `stream` may be passed when the caller already has `resourceStreamKey(payload)`. */
export function deduplicationKey(payload: DeliveryPayload, prefix = 'herald', stream = resourceStreamKey(payload)): string {
  const base = `${prefix}:${stream}`;
  if (payload.notificationType === 'Message') return `${base}:m:${payload.sequenceNumber}`;
  return `${base}:c:${payload.notificationType}:${payload.version}`;
}

/** Identifies one resource's stream of deliveries: `{projectKey}:{typeId}:{resourceId}`. */
export function resourceStreamKey(payload: DeliveryPayload): string {
  return `${payload.projectKey}:${payload.resource.typeId}:${payload.resource.id}`;
}
