/**
 * The event types an EventSubscription may name, per resource type (beta; the spec is silent, so
 * these follow the reference enums EventSubscriptionResourceTypeId and EventType). Events come from
 * Checkout and the Import API, neither of which Herald has: subscriptions to them are accepted and
 * answered, and receive nothing.
 */
export const EVENT_TYPES: ReadonlyMap<string, readonly string[]> = new Map([
  [
    'checkout',
    [
      'CheckoutOrderCreationFailed',
      'CheckoutPaymentAuthorizationCancelled',
      'CheckoutPaymentAuthorizationFailed',
      'CheckoutPaymentAuthorized',
      'CheckoutPaymentCancelAuthorizationFailed',
      'CheckoutPaymentCharged',
      'CheckoutPaymentChargeFailed',
      'CheckoutPaymentRefunded',
      'CheckoutPaymentRefundFailed',
    ],
  ],
  [
    'import-api',
    ['ImportContainerCreated', 'ImportContainerDeleted', 'ImportOperationRejected', 'ImportUnresolved', 'ImportValidationFailed', 'ImportWaitForMasterVariant'],
  ],
]);

/** A Map, so a resource type named like an Object.prototype member (`constructor`) is just unknown. */
export function isEventResourceTypeId(value: unknown): value is string {
  return typeof value === 'string' && EVENT_TYPES.has(value);
}

export function isKnownEventType(resourceTypeId: string, type: unknown): boolean {
  return typeof type === 'string' && (EVENT_TYPES.get(resourceTypeId)?.includes(type) ?? false);
}
