import { invalidInput } from '@herald/model';
import { optionalKey, optionalString, type Draft } from '../shared/validation.js';
import type { DeliveryItem, Order, OrderCustomLineItem, OrderLineItem, ParcelMeasurements, TrackingData } from './order.js';

/*
 * Validators of the values order update actions carry (reference types/order: DeliveryItem,
 * ParcelMeasurements, TrackingData). Each throws a 400 InvalidInput naming the field.
 */

const MAX_ITEMS = 500;

export function asObject(value: unknown, field: string): Draft {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidInput(`'${field}' must be an object.`, { field });
  return value as Draft;
}

export function asList(value: unknown, field: string, required = false): unknown[] {
  if ((value === undefined || value === null) && !required) return [];
  if (!Array.isArray(value)) throw invalidInput(`'${field}' must be a list.`, { field });
  if (value.length > MAX_ITEMS) throw invalidInput(`'${field}' has at most ${MAX_ITEMS} entries.`, { field });
  return value;
}

/** A whole number from `min` (the reference's `format: int64` quantities and `int32` measures). */
export function wholeNumber(value: unknown, field: string, min = 0): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw invalidInput(`'${field}' must be a whole number of at least ${min}.`, { field, invalidValue: value });
  }
  return value;
}

/** Every item of the order, line items and custom line items alike (DeliveryItem.id names either). */
function itemIds(order: Pick<Order, 'lineItems' | 'customLineItems'>): Set<string> {
  return new Set([...order.lineItems, ...order.customLineItems].map((item) => item.id));
}

/** Reference DeliveryItem[]: each `id` one of the order's (custom) line items. */
export function deliveryItems(order: Pick<Order, 'lineItems' | 'customLineItems'>, value: unknown, field: string, required = false): DeliveryItem[] {
  const known = itemIds(order);
  return asList(value, field, required).map((entry, index) => {
    const item = asObject(entry, `${field}[${index}]`);
    if (typeof item.id !== 'string' || !known.has(item.id)) {
      throw invalidInput(`'${field}[${index}].id' must be the id of one of the order's line items or custom line items.`, {
        field: `${field}[${index}].id`,
        invalidValue: item.id,
      });
    }
    return { id: item.id, quantity: wholeNumber(item.quantity, `${field}[${index}].quantity`) };
  });
}

const MEASUREMENTS = ['heightInMillimeter', 'lengthInMillimeter', 'widthInMillimeter', 'weightInGram'] as const;

export function optionalMeasurements(value: unknown, field: string): ParcelMeasurements | undefined {
  if (value === undefined || value === null) return undefined;
  const draft = asObject(value, field);
  const result: ParcelMeasurements = {};
  for (const name of MEASUREMENTS) {
    if (draft[name] !== undefined && draft[name] !== null) result[name] = wholeNumber(draft[name], `${field}.${name}`);
  }
  return result;
}

const TRACKING_TEXT = ['trackingId', 'carrier', 'provider', 'providerTransaction'] as const;

export function optionalTrackingData(value: unknown, field: string): TrackingData | undefined {
  if (value === undefined || value === null) return undefined;
  const draft = asObject(value, field);
  const result: TrackingData = {};
  for (const name of TRACKING_TEXT) {
    const text = optionalString(draft[name], `${field}.${name}`, 256);
    if (text !== undefined) result[name] = text;
  }
  if (draft.isReturn !== undefined && draft.isReturn !== null) {
    if (typeof draft.isReturn !== 'boolean') throw invalidInput(`'${field}.isReturn' must be a boolean.`, { field: `${field}.isReturn` });
    result.isReturn = draft.isReturn;
  }
  return result;
}

/** A key of a delivery, parcel or return item: the reference's key pattern, unique in the order. */
export function optionalUniqueKey(value: unknown, field: string, taken: readonly { key?: string }[]): string | undefined {
  const key = optionalKey(value, field);
  if (key !== undefined && taken.some((entry) => entry.key === key)) {
    throw invalidInput(`The key '${key}' is taken in this order.`, { field, invalidValue: key });
  }
  return key;
}

type Item = OrderLineItem | OrderCustomLineItem;

/** The item an action names by `<kind>Id` or `<kind>Key` (the reference: "Either … is required"). */
export function namedItem<T extends Item>(items: T[], action: Draft, kind: 'lineItem' | 'customLineItem'): T {
  const id = action[`${kind}Id`];
  const key = action[`${kind}Key`];
  if (typeof id !== 'string' && typeof key !== 'string') throw invalidInput(`Either '${kind}Id' or '${kind}Key' is required.`, { field: `${kind}Id` });
  const item = items.find((candidate) => (typeof id === 'string' ? candidate.id === id : candidate.key === key));
  if (item === undefined) {
    const field = typeof id === 'string' ? `${kind}Id` : `${kind}Key`;
    throw invalidInput(
      `The order has no ${kind === 'lineItem' ? 'line item' : 'custom line item'} with ${field} '${String(typeof id === 'string' ? id : key)}'.`,
      { field },
    );
  }
  return item;
}
