import { invalidInput } from '@herald/model';
import { isDateTime } from '../shared/custom-fields.js';
import type { StockLevels } from './inventory-entry.js';

/** An absent or null optional field. */
export function isAbsent(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}

/** The reference's `number, format: int64`: an integer that JSON numbers hold exactly. */
export function wholeNumber(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw invalidInput(`'${field}' must be an integer.`, { field, invalidValue: value });
  }
  return value;
}

export function optionalWholeNumber(value: unknown, field: string): number | undefined {
  return isAbsent(value) ? undefined : wholeNumber(value, field);
}

/** A whole number within the reference's `minimum`/`maximum`. */
export function boundedNumber(value: unknown, field: string, minimum: number, maximum: number): number | undefined {
  if (isAbsent(value)) return undefined;
  const number = wholeNumber(value, field);
  if (number < minimum || number > maximum) {
    throw invalidInput(`'${field}' must be between ${minimum} and ${maximum}.`, { field, invalidValue: value });
  }
  return number;
}

/** InventoryEntryDraft.reservationExpirationInMinutes: `minimum: 1, maximum: 44640` (31 days). */
export function reservationMinutes(value: unknown, field = 'reservationExpirationInMinutes'): number | undefined {
  return boundedNumber(value, field, 1, 44_640);
}

/** The reference's `datetime`: an ISO 8601 instant with its zone. */
export function optionalDateTime(value: unknown, field: string): string | undefined {
  if (isAbsent(value)) return undefined;
  if (typeof value !== 'string' || !isDateTime(value)) {
    throw invalidInput(`'${field}' must be a DateTime such as "2024-01-31T12:00:00.000Z".`, { field, invalidValue: value });
  }
  return value;
}

/** min/maxCartQuantity (`integer, minimum: 1`); a minimum above the maximum could never be met. */
export function cartQuantityLimits(min: unknown, max: unknown): { minCartQuantity?: number; maxCartQuantity?: number } {
  const limits: { minCartQuantity?: number; maxCartQuantity?: number } = {};
  const minimum = boundedNumber(min, 'minCartQuantity', 1, Number.MAX_SAFE_INTEGER);
  const maximum = boundedNumber(max, 'maxCartQuantity', 1, Number.MAX_SAFE_INTEGER);
  if (minimum !== undefined && maximum !== undefined && minimum > maximum) {
    throw invalidInput("'minCartQuantity' must not be greater than 'maxCartQuantity'.", { field: 'minCartQuantity', invalidValue: minimum });
  }
  if (minimum !== undefined) limits.minCartQuantity = minimum;
  if (maximum !== undefined) limits.maxCartQuantity = maximum;
  return limits;
}

/** InventoryEntryDraft.stockLevels: `reorderPoint` and `safetyStock`, each an int32. */
export function stockLevels(value: unknown): StockLevels | undefined {
  if (isAbsent(value)) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidInput("'stockLevels' must be an object with 'reorderPoint' and/or 'safetyStock'.", { field: 'stockLevels' });
  }
  const draft = value as Record<string, unknown>;
  const levels: StockLevels = {};
  const reorderPoint = int32(draft.reorderPoint, 'stockLevels.reorderPoint');
  const safetyStock = int32(draft.safetyStock, 'stockLevels.safetyStock');
  if (reorderPoint !== undefined) levels.reorderPoint = reorderPoint;
  if (safetyStock !== undefined) levels.safetyStock = safetyStock;
  return levels;
}

export function int32(value: unknown, field: string): number | undefined {
  return boundedNumber(value, field, -(2 ** 31), 2 ** 31 - 1);
}
