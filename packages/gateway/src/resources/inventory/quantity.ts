import type { MessagePayload } from '@herald/model';
import type { InventoryEntry } from './inventory-entry.js';

/** Where the entry is: the `sku` and `supplyChannel` most InventoryEntry messages carry. */
export function entryIdentity(entry: InventoryEntry): { sku: string; supplyChannel?: InventoryEntry['supplyChannel'] } {
  return entry.supplyChannel === undefined ? { sku: entry.sku } : { sku: entry.sku, supplyChannel: entry.supplyChannel };
}

/** Whether a stock level was reached by this change: the stock fell from above it to it or below. */
function reached(level: number | undefined, before: number, after: number): boolean {
  return level !== undefined && before > level && after <= level;
}

/**
 * Sets `quantityOnStock` (availableQuantity follows: no reservations in Herald) and returns the
 * reference's messages: InventoryEntryQuantitySet for add/remove/changeQuantity, and
 * InventoryEntryOutOfStock / ReorderPoint / SafetyStock when the stock reaches 0 or a configured
 * level (types/message/InventoryEntry*; InventoryEntryStockLevels). No change, no message.
 */
export function setQuantity(entry: InventoryEntry, quantity: number): MessagePayload[] {
  const before = { quantityOnStock: entry.quantityOnStock, availableQuantity: entry.availableQuantity };
  if (quantity === before.quantityOnStock) return [];
  entry.quantityOnStock = quantity;
  entry.availableQuantity = quantity;
  const identity = entryIdentity(entry);
  const messages: MessagePayload[] = [
    {
      type: 'InventoryEntryQuantitySet',
      oldQuantityOnStock: before.quantityOnStock,
      newQuantityOnStock: quantity,
      oldAvailableQuantity: before.availableQuantity,
      newAvailableQuantity: quantity,
      ...identity,
    },
  ];
  if (reached(0, before.quantityOnStock, quantity)) messages.push({ type: 'InventoryEntryOutOfStock', ...identity });
  if (reached(entry.stockLevels?.reorderPoint, before.quantityOnStock, quantity)) {
    messages.push({ type: 'InventoryEntryReorderPoint', ...identity, quantityOnStock: quantity });
  }
  if (reached(entry.stockLevels?.safetyStock, before.quantityOnStock, quantity)) {
    messages.push({ type: 'InventoryEntrySafetyStock', ...identity, quantityOnStock: quantity });
  }
  return messages;
}
