import type { Destination, Format, SubscriptionHealthStatus } from '@herald/model';
import type { DeletedSubscriptionName, DeliveryStatus, DroppedDeliveryPage, DroppedFilter, DroppedPaging, ProjectDroppedDeliveryPage } from '@herald/delivery';

/** The outcome of a test notification (§4.2 rules 1 and 3). */
export type TestNotificationOutcome = { delivered: true } | { delivered: false; reason: string; errorClass: string };

/**
 * What the subscriptions API needs from the delivery side. The gateway depends on this small
 * interface; `@herald/delivery` provides the implementation (adapters and the engine's tables).
 */
export interface SubscriptionDelivery {
  /** Normalises aliases and validates a destination; errors are user-facing sentences. */
  normalizeDestination(input: unknown): { ok: true; destination: Destination } | { ok: false; errors: string[] };
  validateFormat(input: unknown, destination: Destination): { ok: true; format: Format } | { ok: false; errors: string[] };
  /**
   * The destination as answers show it: secrets partially hidden, and the fields the reference's
   * destination types require that are not stored (SQS/SNS `authenticationMode`, EventBridge `source`).
   */
  answerDestination(destination: Destination, subscription: { projectKey: string; subscriptionId: string }): Destination;
  sealDestination(destination: Destination): Destination;
  openDestination(destination: Destination): Destination;
  sendTestNotification(
    destination: Destination,
    format: Format,
    context: { projectKey: string; subscriptionId: string; subscriptionKey?: string },
  ): Promise<TestNotificationOutcome>;
  health(projectKey: string, subscriptionId: string): Promise<SubscriptionHealthStatus>;
  destinationChanged(projectKey: string, subscriptionId: string): Promise<void>;
  /** After a create or an update: routing picks the change up without waiting for a refresh. */
  subscriptionsChanged(projectKey: string): void;
  /** After a delete: pending deliveries are dropped (`SubscriptionDeleted`) and counted under `name`. */
  subscriptionDeleted(projectKey: string, subscriptionId: string, name: DeletedSubscriptionName): Promise<void>;
  deliveryStatus(projectKey: string, subscriptionId: string): Promise<DeliveryStatus>;
  listDropped(projectKey: string, subscriptionId: string, paging: DroppedPaging): Promise<DroppedDeliveryPage>;
  replayDropped(projectKey: string, subscriptionId: string, ids: string[] | 'all'): Promise<{ replayed: number }>;
  /** Project-level drop records (`/{projectKey}/subscriptions/dropped-deliveries`): deleted subscriptions' too. */
  listProjectDropped(projectKey: string, filter: DroppedFilter, paging: DroppedPaging): Promise<ProjectDroppedDeliveryPage>;
  replayDroppedTo(projectKey: string, from: DroppedFilter & { subscriptionId: string }, toSubscriptionId: string): Promise<{ replayed: number }>;
  purgeDropped(projectKey: string, filter: DroppedFilter & { subscriptionId: string }): Promise<{ purged: number }>;
}
