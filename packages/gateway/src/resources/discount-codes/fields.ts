import { invalidInput, requiredField, type KeyReference, type Reference } from '@herald/model';
import type { UniqueValue } from '@herald/store';
import { CART_DISCOUNT_TYPE_ID, type CartDiscount } from '../cart-discounts/cart-discount.js';
import { compiledField, predicateReferences } from '../discounts/predicate-field.js';
import { identifierLocator, loadReferenced, type Load } from '../shared/references.js';
import { stringArray } from '../shared/validation.js';
import type { DiscountCode } from './discount-code.js';

/** DiscountCodeDraft.code: the text customers type; bounded like other identifiers. */
export function codeField(value: unknown): string {
  if (value === undefined || value === null) throw requiredField('code');
  if (typeof value !== 'string' || value.trim() === '' || value.length > 256) {
    throw invalidInput("'code' must be a non-blank string of at most 256 characters.", { field: 'code', invalidValue: value });
  }
  return value;
}

/**
 * "If the value is used by another Discount Code, a DuplicateField error is returned": the store
 * claims each code in the create itself (unique values, migrations 012/013), so two creates with
 * one code cannot both succeed. `code` has no update action: it is claimed once, freed on delete.
 */
export const discountCodeUniqueValues = (discountCode: DiscountCode): UniqueValue[] => [{ field: 'code', value: discountCode.code }];

/** `cartDiscounts`: 1 to 10 CartDiscountResourceIdentifiers, each existing (ReferencedResourceNotFound), each once. */
export async function cartDiscountsField(value: unknown, load: Load): Promise<{ references: Array<Reference<'cart-discount'>>; discounts: CartDiscount[] }> {
  if (value === undefined || value === null) throw requiredField('cartDiscounts');
  if (!Array.isArray(value) || value.length < 1 || value.length > 10) {
    throw invalidInput("'cartDiscounts' must be an array of 1 to 10 CartDiscount identifiers.", { field: 'cartDiscounts' });
  }
  const discounts: CartDiscount[] = [];
  for (const [index, item] of value.entries()) {
    const discount = await loadReferenced<CartDiscount>(load, CART_DISCOUNT_TYPE_ID, identifierLocator(item, `cartDiscounts[${index}]`, CART_DISCOUNT_TYPE_ID));
    if (!discounts.some((known) => known.id === discount.id)) discounts.push(discount);
  }
  return { references: discounts.map((discount) => ({ typeId: 'cart-discount', id: discount.id })), discounts };
}

/** DiscountCode.stores: "derived from the `stores` field of each referenced CartDiscount". */
export function storesOf(discounts: readonly CartDiscount[]): Array<KeyReference<'store'>> {
  const keys = [...new Set(discounts.flatMap((discount) => discount.stores.map((store) => store.key)))];
  return keys.map((key) => ({ typeId: 'store', key }));
}

/** maxApplications / maxApplicationsPerCustomer: a non-negative integer, or none. */
export function optionalCount(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw invalidInput(`'${field}' must be a non-negative integer.`, { field, invalidValue: value });
  }
  return value;
}

export function groupsField(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  return [...new Set(stringArray(value, 'groups'))];
}

/** An optional cart predicate with its references. */
export function cartPredicateOf(value: unknown): Pick<DiscountCode, 'cartPredicate' | 'references'> {
  if (value === undefined || value === null) return { references: [] };
  const compiled = compiledField(value, 'cartPredicate', 'cart');
  return { cartPredicate: compiled.source, references: predicateReferences([compiled]) };
}
