import type { LocalizedString } from '@herald/model';
import type { FieldDefinition, TypeDocument } from '../shared/custom-fields.js';

/** The field types of a Type's field definitions (the platform's CustomFieldType). */
export type FieldType =
  | { name: 'Boolean' | 'String' | 'LocalizedString' | 'Number' | 'Money' | 'Date' | 'Time' | 'DateTime' }
  | { name: 'Enum'; values: Array<{ key: string; label: string }> }
  | { name: 'LocalizedEnum'; values: Array<{ key: string; label: LocalizedString }> }
  | { name: 'Reference'; referenceTypeId: string }
  | { name: 'Set'; elementType: FieldType };

export type InputHint = 'SingleLine' | 'MultiLine';

/** Declared as extending custom-fields.ts's view so that validation keeps reading Types as stored. */
export interface TypeFieldDefinition extends FieldDefinition {
  name: string;
  type: FieldType;
  required: boolean;
  label: LocalizedString;
  inputHint?: InputHint;
}

/** A Type (`/{projectKey}/types`): the schema of the custom fields of some resource types. */
export interface Type extends TypeDocument {
  key: string;
  name: LocalizedString;
  description?: LocalizedString;
  resourceTypeIds: string[];
  fieldDefinitions: TypeFieldDefinition[];
}

/**
 * The platform's resource type ids for custom fields (reference: ResourceTypeId). Carts use
 * `order` (one Type serves carts and orders), so `cart` is not among them; quote requests use the
 * reference's `quote` (one Type serves quote requests, staged quotes and quotes) and, as before,
 * Herald's own `quote-request` (custom-fields.ts accepts either).
 */
export const CUSTOMIZABLE_RESOURCE_TYPE_IDS = [
  'address',
  'approval-flow',
  'approval-rule',
  'asset',
  'associate-role',
  'attribute-group',
  'business-unit',
  'cart-discount',
  'category',
  'channel',
  'customer',
  'customer-group',
  'custom-line-item',
  'discount-code',
  'inventory-entry',
  'line-item',
  'order',
  'order-delivery',
  'order-edit',
  'order-parcel',
  'order-return-item',
  'payment',
  'payment-interface-interaction',
  'payment-method',
  'payment-method-info',
  'product-price',
  'product-selection',
  'product-tailoring',
  'quote',
  'quote-request',
  'recurrence-policy',
  'recurring-order',
  'reservation',
  'review',
  'shipping',
  'shipping-method',
  'shopping-list',
  'shopping-list-text-line-item',
  'staged-quote',
  'standalone-price',
  'store',
  'transaction',
] as const;
