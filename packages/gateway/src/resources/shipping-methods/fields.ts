import { invalidInput, requiredField, type LocalizedString, type Reference } from '@herald/model';
import { identifierLocator, loadReferenced, type Load } from '../shared/references.js';
import { localizedString, optionalString } from '../shared/validation.js';
import type { TaxCategory } from '../tax-categories/tax-category.js';
import { TAX_CATEGORY_TYPE_ID } from '../tax-categories/tax-category.js';

/** The reference states no length for names and texts; these bounds only keep documents reasonable. */
export const MAX_NAME_LENGTH = 4096;
export const MAX_PREDICATE_LENGTH = 4096;

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
 * ShippingMethodDraft.predicate: a "Valid Cart predicate". The text is stored as given (non-blank,
 * bounded); matching-cart evaluates it against the cart (cart-predicate.ts), matching-location
 * disqualifies methods that have one.
 */
export function optionalPredicate(value: unknown): string | undefined {
  const predicate = optionalString(value, 'predicate', MAX_PREDICATE_LENGTH);
  if (predicate !== undefined && predicate.trim() === '') {
    throw invalidInput("'predicate' must not be blank.", { field: 'predicate', invalidValue: predicate });
  }
  return predicate;
}
