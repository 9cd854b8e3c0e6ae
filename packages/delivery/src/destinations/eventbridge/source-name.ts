import type { EncodeContext } from '../port.js';

/**
 * The partner event source a subscription's events are put on (§2.4 EventBridge: "after a
 * successful configuration a partner event source is created on the receiving side"):
 *
 *   aws.partner/<partnerName>/<projectKey>/<subscription key, or its id when it has no key>
 *
 * e.g. `aws.partner/herald/my-shop/order-events`. The subscription's key is preferred because it is
 * readable in the receiving account's console; the id keeps keyless subscriptions distinct. Both
 * project keys and subscription keys are `[A-Za-z0-9_-]`, ids are UUIDs, all allowed by AWS's
 * pattern `aws.partner(/[\.\-_A-Za-z0-9]+){2,}` (at most 256 characters).
 */
export function partnerEventSourceName(partnerName: string, projectKey: string, context: EncodeContext): string {
  return `aws.partner/${partnerName}/${projectKey}/${context.subscriptionKey ?? context.subscriptionId}`;
}
