import { invalidInput, requiredField, type LocalizedString, type Reference } from '@herald/model';
import { predicateField } from '../discounts/predicate-field.js';
import { identifierLocator, loadReferenced, type Load } from '../shared/references.js';
import { localizedString } from '../shared/validation.js';
import type { TaxCategory } from '../tax-categories/tax-category.js';
import { TAX_CATEGORY_TYPE_ID } from '../tax-categories/tax-category.js';

/** The reference states no length for names and texts; these bounds only keep documents reasonable. */
export const MAX_NAME_LENGTH = 4096;

/** ShippingMethodDraft.taxCategory (required; changeTaxCategory alike): an existing TaxCategory, referenced by id. */
export async function taxCategoryReference(load: Load, value: unknown, field: string): Promise<Reference<'tax-category'>> {
  if (value === undefined || value === null) throw requiredField(field);
  const category = await loadReferenced<TaxCategory>(load, TAX_CATEGORY_TYPE_ID, identifierLocator(value, field, TAX_CATEGORY_TYPE_ID));
  return { typeId: TAX_CATEGORY_TYPE_ID, id: category.id };
}

export function optionalLocalized(value: unknown, field: string): LocalizedString | undefined {
  return value === undefined || value === null ? undefined : localizedString(value, field);
}

export function booleanField(value: unknown, field: string): boolean {
  if (value === undefined || value === null) throw requiredField(field);
  if (typeof value !== 'boolean') throw invalidInput(`'${field}' must be a boolean.`, { field, invalidValue: value });
  return value;
}

/**
 * ShippingMethodDraft.predicate and setPredicate: a "Valid Cart predicate" (ShippingMethod.raml),
 * compiled when written as cart discounts' cartPredicate is: a malformed one is 400 InvalidInput
 * naming its position. Carts and matching-cart evaluate it (cart-predicate.ts).
 */
export function optionalPredicate(value: unknown): string | undefined {
  return value === undefined || value === null ? undefined : predicateField(value, 'predicate', 'cart');
}
