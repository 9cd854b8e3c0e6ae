import { invalidInput, invalidOperation, type MessagePayload } from '@herald/model';
import type { ActionHandlers, UpdateAction } from '../shared/update-actions.js';
import { optionalKey } from '../shared/validation.js';
import { assertPriceKeysUnique, priceFromDraft, pricesFromDraft } from './prices.js';
import { allVariants, type Price, type Product, type ProductData, type ProductVariant } from './product.js';
import { dataToChange, isStaged, variantIn } from './staging.js';

/** The variant holding the embedded price `priceId` in `data` (ProductChangePriceAction.priceId). */
export function holderOf(data: ProductData, priceId: unknown): { variant: ProductVariant; index: number } {
  if (typeof priceId !== 'string') throw invalidInput("'priceId' must be a string.", { field: 'priceId' });
  for (const variant of allVariants(data)) {
    const index = variant.prices.findIndex(({ id }) => id === priceId);
    if (index >= 0) return { variant, index };
  }
  throw invalidOperation(`The product has no price with id '${priceId}'.`);
}

/** Embedded price actions (reference ProductAddPriceAction, …Change…, …Remove…, …SetPrices…) and their messages. */
export const priceActions: ActionHandlers<Product> = {
  async addPrice(product, action, { ctx }) {
    const staged = isStaged(action);
    const price = await priceFromDraft(action.price, 'price', ctx);
    let variantId = 0;
    for (const data of dataToChange(product, staged)) {
      const variant = variantIn(data, action);
      variant.prices.push(structuredClone(price));
      assertPriceKeysUnique(variant.prices, 'prices');
      variantId = variant.id;
    }
    return [{ type: 'ProductPriceAdded', variantId, price, staged }];
  },
  async changePrice(product, action, { ctx }) {
    const staged = isStaged(action);
    const draft = await priceFromDraft(action.price, 'price', ctx);
    const messages: MessagePayload[] = [];
    for (const data of dataToChange(product, staged)) {
      const { variant, index } = holderOf(data, action.priceId);
      const oldPrice = variant.prices[index] as Price;
      const newPrice = { ...draft, id: oldPrice.id };
      variant.prices[index] = newPrice;
      assertPriceKeysUnique(variant.prices, 'prices');
      if (messages.length === 0) messages.push({ type: 'ProductPriceChanged', variantId: variant.id, oldPrice, newPrice, staged });
    }
    return messages;
  },
  removePrice(product, action) {
    const staged = isStaged(action);
    const messages: MessagePayload[] = [];
    for (const data of dataToChange(product, staged)) {
      const { variant, index } = holderOf(data, action.priceId);
      const [price] = variant.prices.splice(index, 1);
      if (messages.length === 0) messages.push({ type: 'ProductPriceRemoved', variantId: variant.id, price, staged });
    }
    return messages;
  },
  /** ProductSetPriceKeyAction: absent removes; a key of another price of the variant is a DuplicatePriceKey. ProductPriceKeySet. */
  setPriceKey(product, action) {
    const staged = isStaged(action);
    const key = optionalKey(action.key);
    const messages: MessagePayload[] = [];
    for (const data of dataToChange(product, staged)) {
      const { variant, index } = holderOf(data, action.priceId);
      const price = variant.prices[index] as Price;
      const oldKey = price.key;
      if (key === undefined) delete price.key;
      else price.key = key;
      assertPriceKeysUnique(variant.prices, 'prices');
      if (messages.length === 0) messages.push({ type: 'ProductPriceKeySet', variantId: variant.id, priceId: price.id, oldKey, key, staged });
    }
    return messages;
  },
  async setPrices(product, action: UpdateAction, { ctx }) {
    const staged = isStaged(action);
    const prices = await pricesFromDraft(action.prices ?? [], 'prices', ctx);
    let variantId = 0;
    for (const data of dataToChange(product, staged)) {
      const variant = variantIn(data, action);
      variant.prices = structuredClone(prices);
      variantId = variant.id;
    }
    return [{ type: 'ProductPricesSet', variantId, prices, staged }];
  },
};
