import type { Subscription } from '@herald/model';

/** The part of an outbox row that routing looks at. */
export interface RoutableEvent {
  kind: 'message' | 'change';
  resourceTypeId: string;
  /** The message `type`; absent for changes. */
  messageType: string | null;
}

/**
 * One thing a subscription listens to, flattened so that the router can match in SQL with the
 * same semantics as `subscriptionMatches` (which is defined through these keys).
 */
export interface RoutingKey {
  kind: 'message' | 'change';
  resourceTypeId: string;
  /** A message type, or null for "any" (all messages of the resource type; every change). */
  messageType: string | null;
}

/**
 * §2.4: a MessageSubscription covers the messages of its resource type whose type is listed in
 * `types`, or all of them when `types` is empty or absent; a ChangeSubscription covers every
 * change notification of its resource type.
 */
export function routingKeys(subscription: Pick<Subscription, 'messages' | 'changes'>): RoutingKey[] {
  const keys: RoutingKey[] = [];
  for (const entry of subscription.messages ?? []) {
    if (entry.types === undefined || entry.types.length === 0) {
      keys.push({ kind: 'message', resourceTypeId: entry.resourceTypeId, messageType: null });
    } else {
      for (const type of entry.types) keys.push({ kind: 'message', resourceTypeId: entry.resourceTypeId, messageType: type });
    }
  }
  for (const entry of subscription.changes ?? []) {
    keys.push({ kind: 'change', resourceTypeId: entry.resourceTypeId, messageType: null });
  }
  return keys;
}

/** The predicate the router's SQL join applies to each (key, outbox row). */
export function keyMatches(key: RoutingKey, event: RoutableEvent): boolean {
  return key.kind === event.kind && key.resourceTypeId === event.resourceTypeId && (key.messageType === null || key.messageType === event.messageType);
}

export function subscriptionMatches(subscription: Pick<Subscription, 'messages' | 'changes'>, event: RoutableEvent): boolean {
  return routingKeys(subscription).some((key) => keyMatches(key, event));
}
