/**
 * §2.4: the resource type ids a ChangeSubscription (and MessageSubscription) may name.
 * Kept as a tuple so `ResourceTypeId` is a closed union.
 */
export const SUBSCRIBABLE_RESOURCE_TYPE_IDS = [
  'associate-role',
  'business-unit',
  'cart',
  'cart-discount',
  'category',
  'channel',
  'customer',
  'customer-email-token',
  'customer-group',
  'customer-password-token',
  'discount-code',
  'discount-group',
  'extension',
  'inventory-entry',
  'key-value-document',
  'order',
  'order-edit',
  'payment',
  'product',
  'product-discount',
  'product-selection',
  'product-type',
  'quote-request',
  'quote',
  'review',
  'shipping-method',
  'shopping-list',
  'staged-quote',
  'standalone-price',
  'state',
  'store',
  'subscription',
  'tax-category',
  'type',
  'zone',
] as const;

export type ResourceTypeId = (typeof SUBSCRIBABLE_RESOURCE_TYPE_IDS)[number];

export function isResourceTypeId(value: unknown): value is ResourceTypeId {
  return typeof value === 'string' && (SUBSCRIBABLE_RESOURCE_TYPE_IDS as readonly string[]).includes(value);
}

/** REST path segment of each resource type, used for CloudEvents `source` and `dataref`. */
const PATH_EXCEPTIONS: Partial<Record<ResourceTypeId, string>> = {
  'key-value-document': 'custom-objects',
  'inventory-entry': 'inventory',
  'customer-email-token': 'customers/email-token',
  'customer-password-token': 'customers/password-token',
  category: 'categories',
  'tax-category': 'tax-categories',
  'product-selection': 'product-selections',
};

export function resourcePathSegment(typeId: string): string {
  const exception = PATH_EXCEPTIONS[typeId as ResourceTypeId];
  if (exception !== undefined) return exception;
  return typeId.endsWith('s') ? typeId : `${typeId}s`;
}
