import type { Subscription } from '@herald/model';

/** The part of an outbox row that routing looks at. */
export interface RoutableEvent {
  kind: 'message' | 'change';
  resourceTypeId: string;
  /** The message `type`; absent for changes. */
  messageType: string | null;
}

/**
 * §2.4: a MessageSubscription covers the messages of its resource type whose type is listed in
 * `types`, or all of them when `types` is empty or absent; a ChangeSubscription covers every
 * change notification of its resource type.
 */
export function subscriptionMatches(subscription: Pick<Subscription, 'messages' | 'changes'>, event: RoutableEvent): boolean {
  if (event.kind === 'message') {
    return (subscription.messages ?? []).some(
      (entry) =>
        entry.resourceTypeId === event.resourceTypeId &&
        (entry.types === undefined ||
          entry.types.length === 0 ||
          (event.messageType !== null && entry.types.includes(event.messageType))),
    );
  }
  return (subscription.changes ?? []).some((entry) => entry.resourceTypeId === event.resourceTypeId);
}
