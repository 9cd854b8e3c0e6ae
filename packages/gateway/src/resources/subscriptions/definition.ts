import { randomUUID } from 'node:crypto';
import { ApiError, invalidInput, type Destination, type Format, type Subscription } from '@herald/model';
import type { DocumentStore, ServerFields } from '@herald/store';
import type { RequestContext } from '../shared/context.js';
import { asDraft, optionalKey } from '../shared/validation.js';
import type { ResourceDefinition } from '../shared/versioned-routes.js';
import type { SubscriptionDelivery } from './delivery-port.js';
import { requireRoomForSubscription } from './limit.js';
import { requireSomethingSubscribed, validateChangeSubscriptions, validateEventSubscriptions, validateMessageSubscriptions } from './subscription-scopes.js';

/**
 * Stored without `status`: health lives in the delivery tables so it never bumps `version`.
 * `events` is absent from documents written before it existed (answered as `[]`).
 */
export type StoredSubscription = Omit<Subscription, 'status' | 'events'> & { events?: Subscription['events'] };

function destinationOf(delivery: SubscriptionDelivery, input: unknown): Destination {
  const result = delivery.normalizeDestination(input);
  if (!result.ok) throw invalidInput(`Invalid destination: ${result.errors.join(' ')}`, { field: 'destination' });
  return result.destination;
}

function formatOf(delivery: SubscriptionDelivery, input: unknown, destination: Destination): Format {
  const result = delivery.validateFormat(input ?? { type: 'Platform' }, destination);
  if (!result.ok) throw invalidInput(`Invalid format: ${result.errors.join(' ')}`, { field: 'format' });
  return result.format;
}

/** §4.2 rules 1 and 3: the test notification must arrive, or the request fails and changes nothing. */
async function requireTestNotification(
  delivery: SubscriptionDelivery,
  destination: Destination,
  format: Format,
  context: { projectKey: string; subscriptionId: string; subscriptionKey?: string },
): Promise<void> {
  const outcome = await delivery.sendTestNotification(destination, format, context);
  if (!outcome.delivered) {
    throw new ApiError(400, {
      code: 'InvalidInput',
      message: `The test notification could not be delivered to the destination (${outcome.errorClass} error): ${outcome.reason}`,
      field: 'destination',
    });
  }
}

export function subscriptionDefinition(documents: DocumentStore, delivery: SubscriptionDelivery): ResourceDefinition<StoredSubscription> {
  return {
    typeId: 'subscription',
    path: 'subscriptions',
    scopes: { view: [], manage: ['manage_subscriptions'] },

    async fromDraft(body, ctx: RequestContext) {
      const draft = asDraft(body, 'SubscriptionDraft');
      const key = optionalKey(draft.key);
      const destination = destinationOf(delivery, draft.destination);
      const format = formatOf(delivery, draft.format, destination);
      const messages = validateMessageSubscriptions(draft.messages);
      const changes = validateChangeSubscriptions(draft.changes);
      const events = validateEventSubscriptions(draft.events);
      requireSomethingSubscribed({ messages, changes, events });
      // A full project answers before its destination gets a test notification. This count is not
      // the limit itself: concurrent creates all pass it. The create counts again, under a lock, in
      // the transaction that inserts (subscriptionDocuments, subscription-documents.ts).
      await requireRoomForSubscription(documents, ctx.projectKey);
      const id = randomUUID();
      await requireTestNotification(delivery, destination, format, {
        projectKey: ctx.projectKey,
        subscriptionId: id,
        ...(key === undefined ? {} : { subscriptionKey: key }),
      });
      const fields: Omit<StoredSubscription, ServerFields> & { id: string } = {
        id,
        destination: delivery.sealDestination(destination),
        messages,
        changes,
        events,
        format,
      };
      if (key !== undefined) fields.key = key;
      return fields;
    },

    actions: {
      setKey(subscription, action) {
        const key = optionalKey(action.key);
        if (key === undefined) delete subscription.key;
        else subscription.key = key;
      },
      setMessages(subscription, action) {
        subscription.messages = validateMessageSubscriptions(action.messages);
        requireSomethingSubscribed(subscription);
      },
      setChanges(subscription, action) {
        subscription.changes = validateChangeSubscriptions(action.changes);
        requireSomethingSubscribed(subscription);
      },
      // Reference SubscriptionSetEventsAction: "can only be unset if either messages or changes is set".
      setEvents(subscription, action) {
        subscription.events = validateEventSubscriptions(action.events);
        requireSomethingSubscribed(subscription);
      },
      async changeDestination(subscription, action, { ctx }) {
        const destination = destinationOf(delivery, action.destination);
        const format = formatOf(delivery, subscription.format, destination);
        await requireTestNotification(delivery, destination, format, {
          projectKey: ctx.projectKey,
          subscriptionId: subscription.id,
          ...(subscription.key === undefined ? {} : { subscriptionKey: subscription.key }),
        });
        subscription.destination = delivery.sealDestination(destination);
      },
    },

    afterCreate(subscription, ctx) {
      delivery.subscriptionsChanged(ctx.projectKey);
    },

    async afterUpdate(subscription, actions, ctx) {
      delivery.subscriptionsChanged(ctx.projectKey);
      // §3.3: a successful changeDestination (its test message arrived) makes the subscription Healthy.
      if (actions.some((action) => action.action === 'changeDestination')) {
        await delivery.destinationChanged(ctx.projectKey, subscription.id);
      }
    },

    async afterDelete(subscription, ctx) {
      // Its destination client is not closed here: another subscription may share it (the pool
      // closes clients once idle). Its drops are counted under its key and destination type, as a
      // worker names its series, also in a gateway without one (issue 25).
      const name = { key: subscription.key, destinationType: subscription.destination.type };
      await delivery.subscriptionDeleted(ctx.projectKey, subscription.id, name);
    },

    async present(subscription, ctx): Promise<Subscription> {
      const identity = { projectKey: ctx.projectKey, subscriptionId: subscription.id };
      return {
        ...subscription,
        destination: delivery.answerDestination(delivery.openDestination(subscription.destination), identity),
        events: subscription.events ?? [],
        status: await delivery.health(ctx.projectKey, subscription.id),
      };
    },
  };
}
