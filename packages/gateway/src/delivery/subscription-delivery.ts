import {
  answerDestination,
  DeliveryAdmin,
  normalizeDestination,
  openDestination,
  sealDestination,
  sendTestNotification,
  validateFormat,
  type DestinationPool,
  type SecretBox,
} from '@herald/delivery';
import type { Clock } from '@herald/model';
import type { SubscriptionDelivery } from '../resources/subscriptions/delivery-port.js';

/** Bounds the test notification of a create or `changeDestination` request (§4.2). */
const TEST_NOTIFICATION_TIMEOUT_MS = 10_000;

/** The subscriptions API's view of delivery: the adapters' pool, the engine's admin, the secret box. */
export function subscriptionDelivery(pool: DestinationPool, admin: DeliveryAdmin, secrets: SecretBox, clock: Clock): SubscriptionDelivery {
  return {
    normalizeDestination,
    validateFormat: (input, destination) => validateFormat(input, destination.type),
    answerDestination: (destination, subscription) =>
      answerDestination(destination, { ...subscription, eventBridgePartnerName: pool.env.eventBridge.partnerName }),
    sealDestination: (destination) => sealDestination(destination, secrets),
    openDestination(destination) {
      try {
        return openDestination(destination, secrets);
      } catch {
        // Sealed with another HERALD_SECRET_KEY (or the key was removed): responses still mask the
        // stored value, so reads keep working; delivery reports the configuration error.
        return destination;
      }
    },
    async sendTestNotification(destination, format, context) {
      const outcome = await sendTestNotification(pool, destination, format, {
        ...context,
        clock,
        timeoutMs: TEST_NOTIFICATION_TIMEOUT_MS,
      });
      if (outcome.status === 'delivered') return { delivered: true };
      return { delivered: false, reason: `${outcome.failure.code}: ${outcome.failure.message}`, errorClass: outcome.failure.class };
    },
    health: (projectKey, id) => admin.getHealth(projectKey, id),
    subscriptionsChanged: (projectKey) => admin.subscriptionsChanged(projectKey),
    async destinationChanged(projectKey, id) {
      await admin.markDestinationChanged(projectKey, id);
    },
    async subscriptionDeleted(projectKey, id, name) {
      await admin.forgetSubscription(projectKey, id, name);
    },
    deliveryStatus: (projectKey, id) => admin.deliveryStatus(projectKey, id),
    listDropped: (projectKey, id, paging) => admin.listDropped(projectKey, id, paging),
    replayDropped: (projectKey, id, ids) => admin.replayDropped(projectKey, id, ids),
    listProjectDropped: (projectKey, filter, paging) => admin.listProjectDropped(projectKey, filter, paging),
    replayDroppedTo: (projectKey, from, toId) => admin.replayDroppedTo(projectKey, from, toId),
    purgeDropped: (projectKey, filter) => admin.purgeDropped(projectKey, filter),
  };
}
