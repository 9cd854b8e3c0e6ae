import { invalidInput, systemClock, type BaseResource, type MessagePayload } from '@herald/model';
import { compiledPredicate } from '../../predicates/index.js';
import type { DiscountedPrice, ProductPredicateKeys } from '../discounts/product-pricing.js';
import { productPredicateSubject } from '../discounts/product-pricing.js';
import { isValidAt } from '../discounts/validity.js';
import { PRODUCT_DISCOUNT_TYPE_ID, type ProductDiscount } from '../product-discounts/product-discount.js';
import type { ActionHandler } from '../shared/update-actions.js';
import { currencyCode, moneyInCurrency } from '../shared/money.js';
import { identifierLocator, loadReferenced, type Load } from '../shared/references.js';
import { asDraft } from '../shared/validation.js';
import { holderOf } from './price-actions.js';
import type { Price, Product, ProductData, ProductVariant } from './product.js';
import { dataToChange, isStaged } from './staging.js';

/** A DiscountedPriceDraft with its ProductDiscount loaded (the checks need both). */
export interface ExternalDiscount {
  discount: ProductDiscount;
  draft: Record<string, unknown>;
}

/**
 * ProductSetDiscountedPriceAction.discounted (and StandalonePriceSetDiscountedPriceAction's): "The
 * referenced ProductDiscount must have the Type `external`, be active" (isActive and valid now);
 * absent or null removes the discounted price. `at`: the draft's field name.
 */
export async function externalDiscount(value: unknown, load: Load, at = 'discounted'): Promise<ExternalDiscount | undefined> {
  if (value === undefined || value === null) return undefined;
  const draft = asDraft(value, `'${at}' DiscountedPriceDraft`);
  const field = `${at}.discount`;
  const discount = await loadReferenced<ProductDiscount>(load, PRODUCT_DISCOUNT_TYPE_ID, identifierLocator(draft.discount, field, PRODUCT_DISCOUNT_TYPE_ID));
  if (discount.value.type !== 'external') {
    throw invalidInput(`The ProductDiscount '${discount.id}' is of type '${discount.value.type}', not 'external'.`, { field });
  }
  if (!discount.isActive || !isValidAt(discount, systemClock.now())) throw invalidInput(`The ProductDiscount '${discount.id}' is not active.`, { field });
  return { discount, draft };
}

/** DiscountedPriceDraft.value: Money in the price's own currency (a discount of one price). */
function discountedValue(draft: Record<string, unknown>, price: Price): DiscountedPrice['value'] {
  const field = 'discounted.value';
  const money = asDraft(draft.value, `'${field}' Money`);
  const currency = currencyCode(money.currencyCode, `${field}.currencyCode`);
  if (currency !== price.value.currencyCode) {
    throw invalidInput(`'${field}' is in ${currency} but the price is in ${price.value.currencyCode}.`, {
      field: `${field}.currencyCode`,
      invalidValue: currency,
    });
  }
  return moneyInCurrency(money, field, currency);
}

/** The product type's and categories' keys the discount's predicate may name. */
export async function predicateKeys(product: Product, data: ProductData, load: Load): Promise<ProductPredicateKeys> {
  const productType = (await load<BaseResource>('product-type', { id: product.productType.id }))?.key;
  const categories: Record<string, string> = {};
  for (const { id } of data.categories) {
    const key = (await load<BaseResource>('category', { id }))?.key;
    if (key !== undefined) categories[id] = key;
  }
  return { categories, ...(productType === undefined ? {} : { productType }) };
}

/** "… and its predicate must match the referenced Price" (of this variant in this data version). */
async function assertPredicateMatches(external: ExternalDiscount, product: Product, data: ProductData, variant: ProductVariant, price: Price, load: Load) {
  const subject = productPredicateSubject(product, data, variant, price, await predicateKeys(product, data, load));
  if (compiledPredicate(external.discount.predicate, 'product').test(subject)) return;
  throw invalidInput(`The predicate of the ProductDiscount '${external.discount.id}' does not match the price '${price.id}'.`, {
    field: 'discounted.discount',
  });
}

/** The ProductPriceExternalDiscountSet message of the variant holding the price. */
function externalDiscountSet(variant: ProductVariant, price: Price, staged: boolean): MessagePayload {
  const message: MessagePayload = { type: 'ProductPriceExternalDiscountSet', variantId: variant.id, priceId: price.id, staged };
  if (variant.key !== undefined) message.variantKey = variant.key;
  if (variant.sku !== undefined) message.sku = variant.sku;
  if (price.discounted !== undefined) message.discounted = structuredClone(price.discounted);
  return message;
}

/**
 * ProductSetDiscountedPriceAction {priceId, staged, discounted?}: sets (or removes) the embedded
 * price's `discounted` in the staged data or, with `staged: false`, both; produces
 * ProductPriceExternalDiscountSet (described by the staged data, the one every action changes).
 */
export const setDiscountedPrice: ActionHandler<Product> = async (product, action, { ctx }) => {
  const staged = isStaged(action);
  const external = await externalDiscount(action.discounted, ctx.load);
  const messages: MessagePayload[] = [];
  for (const data of dataToChange(product, staged)) {
    const { variant, index } = holderOf(data, action.priceId);
    const price = variant.prices[index] as Price;
    if (external === undefined) delete price.discounted;
    else {
      const value = discountedValue(external.draft, price);
      await assertPredicateMatches(external, product, data, variant, price, ctx.load);
      price.discounted = { value, discount: { typeId: PRODUCT_DISCOUNT_TYPE_ID, id: external.discount.id } };
    }
    if (messages.length === 0) messages.push(externalDiscountSet(variant, price, staged));
  }
  return messages;
};
