/**
 * The partner event source a subscription's events are put on (§2.4 EventBridge: "after a
 * successful configuration a partner event source is created on the receiving side"):
 *
 *   aws.partner/<partnerName>/<projectKey>/<subscription id>
 *
 * e.g. `aws.partner/herald/my-shop/5f0e5a43-0b1c-4d2e-8f3a-1b2c3d4e5f60`. The source is created
 * once, when the subscription is, and the customer associates it with an event bus; so it is named
 * after what stays the same for the subscription's whole life. Not its key: `setKey` changes that
 * without creating a source, and events would go to one that does not exist. Project keys are
 * `[A-Za-z0-9_-]` and ids UUIDs, all allowed by AWS's pattern `aws.partner(/[\.\-_A-Za-z0-9]+){2,}`
 * (at most 256 characters).
 */
export function partnerEventSourceName(partnerName: string, projectKey: string, subscriptionId: string): string {
  return `aws.partner/${partnerName}/${projectKey}/${subscriptionId}`;
}
