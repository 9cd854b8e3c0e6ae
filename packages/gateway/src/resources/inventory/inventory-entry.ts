import type { BaseResource, CustomFields, Reference } from '@herald/model';

export const INVENTORY_ENTRY_TYPE_ID = 'inventory-entry';

/** The reference's InventoryEntryStockLevels: thresholds whose crossing produces a message. */
export interface StockLevels {
  reorderPoint?: number;
  safetyStock?: number;
}

/**
 * The reference's InventoryEntry (types/inventory/InventoryEntry.raml). `availableQuantity` is
 * `quantityOnStock` minus reservations; Herald reserves nothing yet, so the two are equal.
 */
export interface InventoryEntry extends BaseResource {
  key?: string;
  sku: string;
  supplyChannel?: Reference<'channel'>;
  quantityOnStock: number;
  availableQuantity: number;
  minCartQuantity?: number;
  maxCartQuantity?: number;
  restockableInDays?: number;
  expectedDelivery?: string;
  reservationExpirationInMinutes?: number;
  stockLevels?: StockLevels;
  custom?: CustomFields;
}
