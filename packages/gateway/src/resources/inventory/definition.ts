import { requiredField, type MessagePayload, type Reference } from '@herald/model';
import type { DocumentStore, ServerFields } from '@herald/store';
import { channelReference } from '../channels/reference.js';
import type { RequestContext } from '../shared/context.js';
import { customFieldActions, customFromDraft } from '../shared/custom-fields.js';
import type { Load } from '../shared/references.js';
import type { ActionHandlers } from '../shared/update-actions.js';
import { asDraft, optionalKey, requiredString } from '../shared/validation.js';
import type { ResourceDefinition } from '../shared/versioned-routes.js';
import { cartQuantityLimits, int32, isAbsent, optionalDateTime, optionalWholeNumber, reservationMinutes, stockLevels, wholeNumber } from './fields.js';
import { INVENTORY_ENTRY_TYPE_ID, type InventoryEntry, type StockLevels } from './inventory-entry.js';
import { entryIdentity, setQuantity } from './quantity.js';
import { assertChannelFree, declareInventoryUniqueValues } from './unique-sku.js';

type EntryFields = Omit<InventoryEntry, ServerFields>;

/** The reference names no length for a SKU; this bound only keeps documents reasonable. */
const MAX_SKU_LENGTH = 256;

/** A supply channel must have the InventorySupply role (400 MissingRoleOnChannel otherwise). */
function supplyChannel(load: Load, value: unknown): Promise<Reference<'channel'> | undefined> {
  return isAbsent(value) ? Promise.resolve(undefined) : channelReference(load, value, 'supplyChannel', 'InventorySupply');
}

function requiredQuantity(value: unknown, field: string): number {
  if (isAbsent(value)) throw requiredField(field);
  return wholeNumber(value, field);
}

/** Sets or removes (undefined) an optional field of the entry. */
function assign<K extends keyof InventoryEntry>(entry: InventoryEntry, field: K, value: InventoryEntry[K] | undefined): void {
  if (value === undefined) delete entry[field];
  else entry[field] = value;
}

async function entryFromDraft(body: unknown, ctx: RequestContext): Promise<EntryFields> {
  const draft = asDraft(body, 'InventoryEntryDraft');
  const quantityOnStock = requiredQuantity(draft.quantityOnStock, 'quantityOnStock');
  const fields: EntryFields = { sku: requiredString(draft, 'sku', MAX_SKU_LENGTH), quantityOnStock, availableQuantity: quantityOnStock };
  const optional: Partial<EntryFields> = {
    key: optionalKey(draft.key),
    supplyChannel: await supplyChannel(ctx.load, draft.supplyChannel),
    ...cartQuantityLimits(draft.minCartQuantity, draft.maxCartQuantity),
    restockableInDays: optionalWholeNumber(draft.restockableInDays, 'restockableInDays'),
    expectedDelivery: optionalDateTime(draft.expectedDelivery, 'expectedDelivery'),
    reservationExpirationInMinutes: reservationMinutes(draft.reservationExpirationInMinutes),
    stockLevels: stockLevels(draft.stockLevels),
    custom: await customFromDraft(draft.custom, INVENTORY_ENTRY_TYPE_ID, ctx),
  };
  for (const [field, value] of Object.entries(optional)) if (value !== undefined) Object.assign(fields, { [field]: value });
  return fields;
}

/** setReorderPoint / setSafetyStock: one level of `stockLevels`; an empty object is removed. */
function setStockLevel(entry: InventoryEntry, level: keyof StockLevels, value: unknown): void {
  const levels: StockLevels = { ...entry.stockLevels };
  const quantity = int32(value, 'quantity');
  if (quantity === undefined) delete levels[level];
  else levels[level] = quantity;
  assign(entry, 'stockLevels', Object.keys(levels).length === 0 ? undefined : levels);
}

function quantityActions(): ActionHandlers<InventoryEntry> {
  return {
    addQuantity: (entry, action) => setQuantity(entry, entry.quantityOnStock + requiredQuantity(action.quantity, 'quantity')),
    // InventoryEntryRemoveQuantityAction: "You can update quantityOnStock to values below zero."
    removeQuantity: (entry, action) => setQuantity(entry, entry.quantityOnStock - requiredQuantity(action.quantity, 'quantity')),
    changeQuantity: (entry, action) => setQuantity(entry, requiredQuantity(action.quantity, 'quantity')),
  };
}

function limitActions(): ActionHandlers<InventoryEntry> {
  return {
    setInventoryLimits(entry, action) {
      const limits = cartQuantityLimits(action.minCartQuantity, action.maxCartQuantity);
      assign(entry, 'minCartQuantity', limits.minCartQuantity);
      assign(entry, 'maxCartQuantity', limits.maxCartQuantity);
    },
    setReorderPoint: (entry, action) => setStockLevel(entry, 'reorderPoint', action.quantity),
    setSafetyStock: (entry, action) => setStockLevel(entry, 'safetyStock', action.quantity),
    setReservationExpirationInMinutes(entry, action): MessagePayload[] {
      const minutes = reservationMinutes(action.reservationExpirationInMinutes);
      const old = entry.reservationExpirationInMinutes;
      if (minutes === old) return [];
      assign(entry, 'reservationExpirationInMinutes', minutes);
      return [
        {
          type: 'InventoryEntryReservationExpirationInMinutesSet',
          ...(minutes === undefined ? {} : { newReservationExpirationInMinutes: minutes }),
          ...(old === undefined ? {} : { oldReservationExpirationInMinutes: old }),
        },
      ];
    },
  };
}

/**
 * `/{projectKey}/inventory` (reference: resources/inventory.raml, types/inventory; type id
 * `inventory-entry`). Its messages are types/message/InventoryEntry*; the reference has no
 * custom field messages for inventory entries, and no in-store inventory endpoints.
 */
export function inventoryEntryDefinition(documents: DocumentStore): ResourceDefinition<InventoryEntry> {
  declareInventoryUniqueValues(documents);
  return {
    typeId: INVENTORY_ENTRY_TYPE_ID,
    path: 'inventory',
    // resources/inventory.raml securedBy: the product scopes.
    scopes: { view: ['view_products'], manage: ['manage_products'] },

    // A combination of SKU and supply channel another entry holds is refused by the store's claim (unique-sku.ts).
    fromDraft: entryFromDraft,

    createdMessages: (inventoryEntry) => [{ type: 'InventoryEntryCreated', inventoryEntry }],
    deletedMessages: (entry) => [{ type: 'InventoryEntryDeleted', ...entryIdentity(entry) }],

    actions: {
      ...quantityActions(),
      ...limitActions(),
      setRestockableInDays(entry, action) {
        assign(entry, 'restockableInDays', optionalWholeNumber(action.restockableInDays, 'restockableInDays'));
      },
      setExpectedDelivery(entry, action) {
        assign(entry, 'expectedDelivery', optionalDateTime(action.expectedDelivery, 'expectedDelivery'));
      },
      async setSupplyChannel(entry, action, { ctx }) {
        const channel = await supplyChannel(ctx.load, action.supplyChannel);
        if (channel?.id === entry.supplyChannel?.id) return;
        await assertChannelFree(documents.db, ctx.projectKey, entry, channel);
        assign(entry, 'supplyChannel', channel);
      },
      setKey(entry, action) {
        assign(entry, 'key', optionalKey(action.key));
      },
      ...customFieldActions<InventoryEntry>(INVENTORY_ENTRY_TYPE_ID, { messages: false }),
    },
  };
}
