import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { duplicateField, invalidInput } from '@herald/model';
import { customFromDraft, isDateTime } from '../shared/custom-fields.js';
import type { Load } from '../shared/references.js';
import { asDraft, localizedString, optionalKey, optionalString, type Draft } from '../shared/validation.js';
import { resolveVariant, type ProductFinder } from './product-variant.js';
import { LINE_ITEM_CUSTOM_TYPE_ID, TEXT_LINE_ITEM_CUSTOM_TYPE_ID, type ShoppingList, type ShoppingListLineItem, type TextLineItem } from './shopping-list.js';

/** The largest quantity an item may have: what a 32-bit counter holds, as for cart line items. */
const MAX_QUANTITY = 2_147_483_647;

/** What adding an item needs besides the draft: product lookups, Types, and the time it is added. */
export interface ItemContext extends ProductFinder {
  now: string;
}

/** A whole number of items from `min`; absent → `fallback` (the reference's `quantity` default is 1). */
export function itemQuantity(value: unknown, field: string, fallback: number | undefined, min: number): number {
  if ((value === undefined || value === null) && fallback !== undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > MAX_QUANTITY) {
    throw invalidInput(`'${field}' must be an integer from ${min} to ${MAX_QUANTITY}.`, { field, invalidValue: value });
  }
  return value;
}

function addedAt(value: unknown, now: string): string {
  if (value === undefined || value === null) return now;
  if (typeof value !== 'string' || !isDateTime(value)) {
    throw invalidInput("'addedAt' must be an ISO 8601 date and time with a zone.", { field: 'addedAt', invalidValue: value });
  }
  return value;
}

function optionalProductId(value: unknown): string | undefined {
  return optionalString(value, 'productId', 256);
}

function optionalVariantId(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw invalidInput("'variantId' must be a positive integer.", { field: 'variantId', invalidValue: value });
  }
  return value;
}

/** ShoppingListLineItemDraft / addLineItem: the variant resolved against the product's current data. */
export async function lineItemFromDraft(value: unknown, context: ItemContext): Promise<ShoppingListLineItem> {
  const draft = asDraft(value, 'ShoppingListLineItemDraft');
  const productId = optionalProductId(draft.productId);
  const variantId = optionalVariantId(draft.variantId);
  const sku = optionalString(draft.sku, 'sku', 256);
  const resolved = await resolveVariant(context, {
    ...(productId === undefined ? {} : { productId }),
    ...(variantId === undefined ? {} : { variantId }),
    ...(sku === undefined ? {} : { sku }),
  });
  const { product } = resolved;
  const item: ShoppingListLineItem = {
    id: randomUUID(),
    productId: product.id,
    productType: product.productType,
    name: structuredClone(product.masterData.current.name),
    published: product.masterData.published,
    quantity: itemQuantity(draft.quantity, 'quantity', 1, 1),
    addedAt: addedAt(draft.addedAt, context.now),
  };
  if (resolved.variantId !== undefined) item.variantId = resolved.variantId;
  const key = optionalKey(draft.key);
  if (key !== undefined) item.key = key;
  const custom = await customFromDraft(draft.custom, LINE_ITEM_CUSTOM_TYPE_ID, context);
  if (custom !== undefined) item.custom = custom;
  return item;
}

/** TextLineItemDraft / addTextLineItem: `name` is required. */
export async function textLineItemFromDraft(value: unknown, context: { load: Load; now: string }): Promise<TextLineItem> {
  const draft = asDraft(value, 'TextLineItemDraft');
  if (draft.name === undefined || draft.name === null) throw invalidInput("'name' is required.", { field: 'name' });
  const item: TextLineItem = {
    id: randomUUID(),
    name: localizedString(draft.name, 'name'),
    quantity: itemQuantity(draft.quantity, 'quantity', 1, 1),
    addedAt: addedAt(draft.addedAt, context.now),
  };
  if (draft.description !== undefined && draft.description !== null) item.description = localizedString(draft.description, 'description');
  const key = optionalKey(draft.key);
  if (key !== undefined) item.key = key;
  const custom = await customFromDraft(draft.custom, TEXT_LINE_ITEM_CUSTOM_TYPE_ID, context);
  if (custom !== undefined) item.custom = custom;
  return item;
}

/** Item keys are "unique per ShoppingList" (reference ShoppingListLineItem.key, TextLineItem.key). */
function assertKeyFree(items: ReadonlyArray<{ key?: string }>, key: string | undefined, field: string): void {
  if (key !== undefined && items.some((item) => item.key === key)) throw duplicateField(field, key);
}

/**
 * ShoppingListAddLineItemAction: "If the ShoppingList already contains a ShoppingListLineItem for
 * the same Product Variant with the same Custom Fields, then only the quantity of the existing
 * ShoppingListLineItem is increased"; an item without `variantId` is not the same as one naming
 * the master variant. Answers the item as it is afterwards.
 */
export function addLineItem(list: ShoppingList, item: ShoppingListLineItem): ShoppingListLineItem {
  const same = list.lineItems.find(
    (existing) =>
      existing.productId === item.productId &&
      existing.variantId === item.variantId &&
      isDeepStrictEqual(existing.custom, item.custom) &&
      (item.key === undefined || existing.key === item.key),
  );
  if (same !== undefined) {
    same.quantity = Math.min(same.quantity + item.quantity, MAX_QUANTITY);
    return same;
  }
  assertKeyFree(list.lineItems, item.key, 'lineItems.key');
  list.lineItems.push(item);
  return item;
}

export function addTextLineItem(list: ShoppingList, item: TextLineItem): TextLineItem {
  assertKeyFree(list.textLineItems, item.key, 'textLineItems.key');
  list.textLineItems.push(item);
  return item;
}

/** The fields an action names its item by: `lineItemId`/`lineItemKey` or `textLineItemId`/`textLineItemKey`. */
export const LINE_ITEM_SELECTOR = { idField: 'lineItemId', keyField: 'lineItemKey' } as const;
export const TEXT_LINE_ITEM_SELECTOR = { idField: 'textLineItemId', keyField: 'textLineItemKey' } as const;
export type ItemSelector = typeof LINE_ITEM_SELECTOR | typeof TEXT_LINE_ITEM_SELECTOR;

/** The item an action addresses by id or key ("Either … or … is required"); 400 InvalidInput if none. */
export function itemOf<T extends { id: string; key?: string }>(items: readonly T[], action: Draft, selector: ItemSelector): T {
  const id = action[selector.idField];
  const key = action[selector.keyField];
  if (typeof id !== 'string' && typeof key !== 'string') {
    throw invalidInput(`Either '${selector.idField}' or '${selector.keyField}' is required.`, { field: selector.idField });
  }
  const item = items.find((candidate) => (typeof id === 'string' ? candidate.id === id : candidate.key === key));
  if (item === undefined) {
    const [field, what] = typeof id === 'string' ? [selector.idField, `id '${id}'`] : [selector.keyField, `key '${String(key)}'`];
    throw invalidInput(`The shopping list has no item with ${what}.`, { field });
  }
  return item;
}

/** The change*ItemsOrder actions: "Must contain all existing … ids in the desired new order." */
export function reordered<T extends { id: string }>(items: readonly T[], order: unknown, field: string): T[] {
  const ids = items.map((item) => item.id);
  const valid = Array.isArray(order) && order.length === ids.length && new Set(order).size === ids.length && order.every((id) => ids.includes(id as string));
  if (!valid) throw invalidInput(`'${field}' must list the id of every item exactly once.`, { field });
  return (order as string[]).map((id) => items.find((item) => item.id === id) as T);
}
