import { duplicateField, type Reference } from '@herald/model';
import type { DocumentStore, Queryable, UniqueValue } from '@herald/store';
import { INVENTORY_ENTRY_TYPE_ID, type InventoryEntry } from './inventory-entry.js';

/**
 * inventory.raml POST: "Only one InventoryEntry can be created for a combination of a SKU and a
 * supply channel" (no channel is a combination of its own). The store claims the combination in
 * the write itself (packages/store documents/unique-values.ts; migration 014 claims the entries
 * stored before), so two creates racing for one combination cannot both succeed: 400
 * DuplicateField `sku`.
 *
 * The claimed text is the channel id as a JSON string (`null` without a channel), a colon and the
 * SKU: a JSON string ends at its closing quote, so no two combinations share a text. Migration 014
 * builds the same text in SQL (jsonb's text of a string is JSON.stringify's for these ids).
 */
export const skuChannelValue = (sku: string, supplyChannel: Reference<'channel'> | undefined): string => `${JSON.stringify(supplyChannel?.id ?? null)}:${sku}`;

const FIELD = 'sku';

export const inventoryEntryUniqueValues = (entry: InventoryEntry): UniqueValue[] => [
  { field: FIELD, value: skuChannelValue(entry.sku, entry.supplyChannel), duplicateValue: entry.sku },
];

export function declareInventoryUniqueValues(documents: DocumentStore): void {
  documents.declareUniqueValues<InventoryEntry>(INVENTORY_ENTRY_TYPE_ID, inventoryEntryUniqueValues);
}

/**
 * InventoryEntrySetSupplyChannelAction: "If an entry with the same `sku` and `supplyChannel`
 * already exists, a DuplicateField error is returned", named `supplyChannel` here (the field the
 * action changes). One probe of the claims' primary key; the claim of the write stays the
 * guarantee, and a move racing with a create of the same combination is refused by it (as `sku`).
 * Long values are compared by their hash as the store stores them (migration 012).
 */
export async function assertChannelFree(
  db: Queryable,
  projectKey: string,
  entry: InventoryEntry,
  supplyChannel: Reference<'channel'> | undefined,
): Promise<void> {
  const found = await db.query<{ resource_id: string }>(
    `SELECT resource_id FROM unique_values WHERE project_key = $1 AND type_id = $2 AND field = $3 AND resource_id <> $5
        AND value = CASE WHEN octet_length($4) <= 1024 THEN $4 ELSE 'sha256:' || encode(sha256(convert_to($4, 'UTF8')), 'hex') END`,
    [projectKey, INVENTORY_ENTRY_TYPE_ID, FIELD, skuChannelValue(entry.sku, supplyChannel), entry.id],
  );
  if (found.rows.length > 0) throw duplicateField('supplyChannel', supplyChannel);
}
