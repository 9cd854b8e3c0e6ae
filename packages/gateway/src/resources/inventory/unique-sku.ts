import { duplicateField, type Reference } from '@herald/model';
import type { Queryable } from '@herald/store';
import { INVENTORY_ENTRY_TYPE_ID } from './inventory-entry.js';

/**
 * inventory.raml POST: "Only one InventoryEntry can be created for a combination of a SKU and a
 * supply channel" (no channel is a combination of its own); setSupplyChannel answers DuplicateField
 * for the same (InventoryEntrySetSupplyChannelAction). `@>` on the sku is answered by the GIN index.
 *
 * A read before the write, not a constraint (no unique index on document fields): two creates of
 * the same pair committing at the same moment can both pass, an accepted race, as for customer
 * group names.
 */
export async function assertSkuChannelFree(
  db: Queryable,
  projectKey: string,
  sku: string,
  supplyChannel: Reference<'channel'> | undefined,
  field: string,
  selfId = '',
): Promise<void> {
  const found = await db.query<{ id: string }>(
    `SELECT id FROM resources WHERE project_key = $1 AND type_id = $2 AND doc @> $3::jsonb AND id <> $4
        AND coalesce(doc -> 'supplyChannel' ->> 'id', '') = $5 LIMIT 1`,
    [projectKey, INVENTORY_ENTRY_TYPE_ID, JSON.stringify({ sku }), selfId, supplyChannel?.id ?? ''],
  );
  if (found.rows.length > 0) throw duplicateField(field, field === 'sku' ? sku : supplyChannel);
}
