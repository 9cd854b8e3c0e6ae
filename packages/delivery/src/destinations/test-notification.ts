import type { Clock, Destination, Format, ResourceCreatedDeliveryPayload } from '@herald/model';
import { failed, type SendOutcome } from './port.js';
import type { DestinationPool } from './pool.js';

export interface TestNotificationContext {
  projectKey: string;
  subscriptionId: string;
  subscriptionKey?: string;
  /** The subscription's version the notification reports (1 on create). */
  subscriptionVersion?: number;
  clock: Clock;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** §4.2 rule 1: a `ResourceCreated` change notification for the subscription itself. */
export function testNotificationPayload(context: TestNotificationContext): ResourceCreatedDeliveryPayload {
  return {
    notificationType: 'ResourceCreated',
    projectKey: context.projectKey,
    resource: { typeId: 'subscription', id: context.subscriptionId },
    // As in every change notification: the subscription's key, or `{}` (store/documents/identifiers.ts).
    resourceUserProvidedIdentifiers: context.subscriptionKey === undefined ? {} : { key: context.subscriptionKey },
    version: context.subscriptionVersion ?? 1,
    modifiedAt: context.clock.now().toISOString(),
  };
}

/**
 * §4.2 rules 1 and 3: on create and `changeDestination` the destination must take a test
 * notification, or the request fails. Verifies the destination first (e.g. SQS queue type).
 */
export async function sendTestNotification(
  pool: DestinationPool,
  destination: Destination,
  format: Format,
  context: TestNotificationContext,
): Promise<SendOutcome> {
  const adapter = pool.get(destination);
  const options = {
    ...(context.signal === undefined ? {} : { signal: context.signal }),
    ...(context.timeoutMs === undefined ? {} : { timeoutMs: context.timeoutMs }),
  };
  const verified = await adapter.verify({ projectKey: context.projectKey, subscriptionId: context.subscriptionId }, options);
  if (!verified.ok) return failed(verified.failure);
  const encoded = adapter.encode(testNotificationPayload(context), format, { subscriptionId: context.subscriptionId });
  if (!encoded.ok) return failed(encoded.failure);
  const [outcome] = await adapter.send([encoded.message], options);
  return outcome ?? failed({ class: 'temporary', code: 'NoOutcome', message: 'The adapter reported no outcome' });
}
