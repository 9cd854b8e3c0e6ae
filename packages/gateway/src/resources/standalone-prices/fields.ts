import { invalidInput, type Reference } from '@herald/model';
import { identifierLocator, loadReferenced, type Load } from '../shared/references.js';
import type { DiscountedPrice, StagedStandalonePrice } from './standalone-price.js';
import { typedMoneyIn } from '../shared/typed-money.js';

const PRODUCT_DISCOUNT_TYPE_ID = 'product-discount';

function asObject(value: unknown, field: string, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidInput(`'${field}' must be a ${what}.`, { field });
  return value as Record<string, unknown>;
}

/**
 * A DiscountedPriceDraft: its `discount` must be an existing external ProductDiscount
 * (StandalonePriceSetDiscountedPriceAction). Herald has no product discounts yet, so every
 * reference is a 400 ReferencedResourceNotFound until it does.
 */
export async function discountedPrice(load: Load, value: unknown, field: string, currency: string): Promise<DiscountedPrice | undefined> {
  if (value === undefined || value === null) return undefined;
  const draft = asObject(value, field, 'DiscountedPrice: {"value": {…}, "discount": {"typeId": "product-discount", "id": "…"}}');
  const money = typedMoneyIn(draft.value, `${field}.value`, currency);
  const locator = identifierLocator(draft.discount, `${field}.discount`, PRODUCT_DISCOUNT_TYPE_ID);
  const discount = await loadReferenced(load, PRODUCT_DISCOUNT_TYPE_ID, locator);
  const reference: Reference<'product-discount'> = { typeId: PRODUCT_DISCOUNT_TYPE_ID, id: discount.id };
  return { value: money, discount: reference };
}

/** StandalonePriceDraft.staged (StagedPriceDraft): a value in the price's currency. */
export function stagedPrice(value: unknown, currency: string): StagedStandalonePrice | undefined {
  if (value === undefined || value === null) return undefined;
  const draft = asObject(value, 'staged', 'StagedPriceDraft: {"value": {…}}');
  return { value: typedMoneyIn(draft.value, 'staged.value', currency) };
}

export function booleanField(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw invalidInput(`'${field}' must be a boolean.`, { field, invalidValue: value });
  return value;
}
