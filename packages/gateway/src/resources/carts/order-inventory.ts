import { ApiError } from '@herald/model';
import type { DocumentStore, WriteContext } from '@herald/store';
import { INVENTORY_ENTRY_TYPE_ID, type InventoryEntry } from '../inventory/inventory-entry.js';
import type { Cart, LineItem } from './cart.js';

/*
 * Inventory when an order is created from a cart (types/cart/InventoryMode.raml), each line item
 * by its own `inventoryMode` or else the cart's:
 * - TrackOnly: the order deducts the ordered quantity from the entry's `availableQuantity`, even
 *   below zero; a line item without a matching entry is OutOfStock.
 * - ReserveOnOrder: as TrackOnly, and an entry whose `availableQuantity` is short is OutOfStock
 *   unless it has `restockableInDays` (0 included).
 * The entry is the one of the item's SKU and supply channel (none: the entry without a channel).
 * Runs in the order's transaction: the order and the deductions commit together or not at all.
 */

interface Deduction {
  entry: InventoryEntry;
  quantity: number;
}

async function entryFor(store: DocumentStore, projectKey: string, item: LineItem & { variant: { sku: string } }): Promise<InventoryEntry | undefined> {
  const found = await store.db.query<{ doc: InventoryEntry }>(
    `SELECT doc FROM resources WHERE project_key = $1 AND type_id = $2 AND doc @> $3::jsonb AND coalesce(doc -> 'supplyChannel' ->> 'id', '') = $4 LIMIT 1`,
    [projectKey, INVENTORY_ENTRY_TYPE_ID, JSON.stringify({ sku: item.variant.sku }), item.supplyChannel?.id ?? ''],
  );
  return found.rows[0]?.doc;
}

function isAvailable(entry: InventoryEntry, quantity: number): boolean {
  return entry.availableQuantity >= quantity || entry.restockableInDays !== undefined;
}

/** OutOfStock (types/error/OutOfStockError.raml): the line items and SKUs that are short. */
function outOfStock(items: readonly LineItem[]): ApiError {
  const skus = items.map((item) => item.variant.sku ?? '');
  return new ApiError(400, {
    code: 'OutOfStock',
    message: `Some line items are out of stock at the time of placing the order: ${skus.join(', ')}.`,
    lineItems: items.map((item) => item.id),
    skus,
  });
}

/** What the order deducts, or OutOfStock naming every line item that is short. */
async function deductionsFor(store: DocumentStore, projectKey: string, cart: Cart): Promise<Deduction[]> {
  const deductions: Deduction[] = [];
  const short: LineItem[] = [];
  for (const item of cart.lineItems) {
    const mode = item.inventoryMode ?? cart.inventoryMode;
    if ((mode !== 'TrackOnly' && mode !== 'ReserveOnOrder') || item.variant.sku === undefined) continue;
    const entry = await entryFor(store, projectKey, item as LineItem & { variant: { sku: string } });
    if (entry === undefined || (mode === 'ReserveOnOrder' && !isAvailable(entry, item.quantity))) short.push(item);
    else deductions.push({ entry, quantity: item.quantity });
  }
  if (short.length > 0) throw outOfStock(short);
  return deductions;
}

/** Checks and deducts the cart's tracked line items on `store` (the order's transaction). */
export async function deductInventory(store: DocumentStore, write: WriteContext, cart: Cart): Promise<void> {
  // Two line items of one SKU and channel deduct from one entry: one write with their sum.
  const byEntry = new Map<string, Deduction>();
  for (const { entry, quantity } of await deductionsFor(store, write.projectKey, cart)) {
    const known = byEntry.get(entry.id);
    byEntry.set(entry.id, { entry, quantity: (known?.quantity ?? 0) + quantity });
  }
  for (const { entry, quantity } of byEntry.values()) {
    await store.update<InventoryEntry>(write, INVENTORY_ENTRY_TYPE_ID, { id: entry.id }, entry.version, (current) => {
      current.availableQuantity -= quantity;
      return { doc: current, messages: [] };
    });
  }
}
