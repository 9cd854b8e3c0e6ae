import { invalidInput, type Reference } from '@herald/model';
import { externalDiscount } from '../products/discounted-price.js';
import { assertDiscountMatchesPrice, type PredicateReads, type PricedScope } from './discount-predicate.js';
import type { DiscountedPrice, StagedStandalonePrice } from './standalone-price.js';
import { typedMoneyIn } from '../shared/typed-money.js';

const PRODUCT_DISCOUNT_TYPE_ID = 'product-discount';

function asObject(value: unknown, field: string, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidInput(`'${field}' must be a ${what}.`, { field });
  return value as Record<string, unknown>;
}

/**
 * A DiscountedPriceDraft for `price`: its `discount` must be an existing, active ProductDiscount of
 * type `external` whose predicate matches the price (StandalonePriceSetDiscountedPriceAction; the
 * products' check), and its value is in the price's currency.
 */
export async function discountedPrice(value: unknown, field: string, price: PricedScope, reads: PredicateReads): Promise<DiscountedPrice | undefined> {
  if (value === undefined || value === null) return undefined;
  asObject(value, field, 'DiscountedPrice: {"value": {…}, "discount": {"typeId": "product-discount", "id": "…"}}');
  const external = await externalDiscount(value, reads.load, field);
  if (external === undefined) return undefined;
  const money = typedMoneyIn(external.draft.value, `${field}.value`, price.value.currencyCode);
  await assertDiscountMatchesPrice(external, price, reads);
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
