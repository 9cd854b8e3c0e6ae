import type { BaseResource, LocalizedString, Reference } from '@herald/model';

export const PRODUCT_TYPE_TYPE_ID = 'product-type';

/** The reference's AttributeReferenceTypeId: what an AttributeReferenceType may point at. */
export const ATTRIBUTE_REFERENCE_TYPE_IDS = [
  'associate-role',
  'business-unit',
  'cart',
  'cart-discount',
  'category',
  'channel',
  'customer',
  'customer-group',
  'key-value-document',
  'order',
  'product',
  'product-type',
  'review',
  'shipping-method',
  'state',
  'variant',
  'zone',
] as const;
export type AttributeReferenceTypeId = (typeof ATTRIBUTE_REFERENCE_TYPE_IDS)[number];

/** The reference's AttributeConstraintEnum. */
export const ATTRIBUTE_CONSTRAINTS = ['None', 'Unique', 'CombinationUnique', 'SameForAll'] as const;
export type AttributeConstraint = (typeof ATTRIBUTE_CONSTRAINTS)[number];

/** The reference's AttributeLevelEnum. */
export const ATTRIBUTE_LEVELS = ['Product', 'Variant'] as const;
export type AttributeLevel = (typeof ATTRIBUTE_LEVELS)[number];

/** The reference's TextInputHint. */
export const TEXT_INPUT_HINTS = ['SingleLine', 'MultiLine'] as const;
export type TextInputHint = (typeof TEXT_INPUT_HINTS)[number];

export interface PlainEnumValue {
  key: string;
  label: string;
}

export interface LocalizedEnumValue {
  key: string;
  label: LocalizedString;
}

/** The names of the reference's AttributeTypes without properties of their own. */
export const SIMPLE_ATTRIBUTE_TYPES = ['boolean', 'text', 'ltext', 'number', 'money', 'date', 'time', 'datetime'] as const;
export type SimpleAttributeTypeName = (typeof SIMPLE_ATTRIBUTE_TYPES)[number];

/** The reference's AttributeType, discriminated by `name` (types/product-type/Attribute*Type.raml). */
export type AttributeType =
  | { name: SimpleAttributeTypeName }
  | { name: 'enum'; values: PlainEnumValue[] }
  | { name: 'lenum'; values: LocalizedEnumValue[] }
  | { name: 'reference'; referenceTypeId: AttributeReferenceTypeId }
  | { name: 'set'; elementType: AttributeType }
  | { name: 'nested'; typeReference: Reference<'product-type'> };

/** The reference's AttributeDefinition: every field is present in answers (defaults applied). */
export interface AttributeDefinition {
  type: AttributeType;
  name: string;
  label: LocalizedString;
  isRequired: boolean;
  level: AttributeLevel;
  attributeConstraint: AttributeConstraint;
  inputTip?: LocalizedString;
  inputHint: TextInputHint;
  isSearchable: boolean;
}

/** A ProductType (`/{projectKey}/product-types`; reference: types/product-type/ProductType.raml). */
export interface ProductType extends BaseResource {
  key?: string;
  name: string;
  description: string;
  attributes: AttributeDefinition[];
}

/** The element type at the bottom of a chain of sets (the type itself when it is no set). */
export function innermostType(type: AttributeType): Exclude<AttributeType, { name: 'set' }> {
  return type.name === 'set' ? innermostType(type.elementType) : type;
}
