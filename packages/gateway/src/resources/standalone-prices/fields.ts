import { invalidInput, type Reference } from '@herald/model';
import { externalDiscount } from '../products/discounted-price.js';
import type { Load } from '../shared/references.js';
import type { DiscountedPrice, StagedStandalonePrice } from './standalone-price.js';
import { typedMoneyIn } from '../shared/typed-money.js';

const PRODUCT_DISCOUNT_TYPE_ID = 'product-discount';

function asObject(value: unknown, field: string, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidInput(`'${field}' must be a ${what}.`, { field });
  return value as Record<string, unknown>;
}

/**
 * A DiscountedPriceDraft: its `discount` must be an existing, active ProductDiscount of type
 * `external` (StandalonePriceSetDiscountedPriceAction; the products' check). Not checked yet: that
 * the discount's predicate matches the price's product.
 */
export async function discountedPrice(load: Load, value: unknown, field: string, currency: string): Promise<DiscountedPrice | undefined> {
  if (value === undefined || value === null) return undefined;
  asObject(value, field, 'DiscountedPrice: {"value": {…}, "discount": {"typeId": "product-discount", "id": "…"}}');
  const external = await externalDiscount(value, load, field);
  if (external === undefined) return undefined;
  const money = typedMoneyIn(external.draft.value, `${field}.value`, currency);
  const reference: Reference<'product-discount'> = { typeId: PRODUCT_DISCOUNT_TYPE_ID, id: external.discount.id };
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
