/** Fixtures of the category tests. */
import type { Json } from '../carts/commerce.js';

/** The reference's category order hint pattern (ProductAddToCategoryAction.orderHint). */
export const ORDER_HINT = /^0\.[0-9]*[1-9]$/;

/** A CategoryDraft keyed `key`, with a slug of the same text, and `extra` fields over it. */
export function category(key: string, extra: Json = {}): Json {
  return { key, name: { en: `Category ${key}` }, slug: { en: key }, ...extra };
}

/** A CategoryResourceIdentifier by key. */
export function byKey(key: string): Json {
  return { typeId: 'category', key };
}
