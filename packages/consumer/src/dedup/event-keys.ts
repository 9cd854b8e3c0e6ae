import type { EventDeliveryPayload } from '../delivery.js';

/*
 * Keys of event deliveries (reference: EventDeliveryPayload). Events carry no projectKey, resource,
 * sequence number or version, only their own unique `id`, so that is what they are deduplicated by;
 * they are never ordered, so their "stream" only groups them in logs.
 *
 *   `{prefix}:events:{resourceType}:{id}`
 */

export function eventStreamKey(payload: EventDeliveryPayload): string {
  return `events:${payload.resourceType}`;
}

export function eventDeduplicationKey(payload: EventDeliveryPayload, prefix: string, stream = eventStreamKey(payload)): string {
  return `${prefix}:${stream}:${payload.id}`;
}
