import { duplicateField, invalidInput, requiredField } from '@herald/model';
import type { Queryable } from '@herald/store';

/**
 * A `sortOrder` of the reference: a decimal strictly between 0 and 1 written as a string
 * ("0.5", "0.0125"); a trailing zero would make two spellings of one value, so it is refused.
 */
const SORT_ORDER = /^0\.[0-9]*[1-9]$/;

export function sortOrderField(value: unknown, field = 'sortOrder'): string {
  if (value === undefined || value === null) throw requiredField(field);
  if (typeof value !== 'string' || value.length > 64 || !SORT_ORDER.test(value)) {
    throw invalidInput(`'${field}' must be a decimal between 0 and 1 (exclusive) as a string, such as "0.5", without trailing zeros.`, {
      field,
      invalidValue: value,
    });
  }
  return value;
}

/** Orders two valid sort orders as decimals (digit strings compare once equally long). */
export function compareSortOrders(a: string, b: string): number {
  const width = Math.max(a.length, b.length);
  const left = a.padEnd(width, '0');
  const right = b.padEnd(width, '0');
  return left < right ? -1 : left > right ? 1 : 0;
}

/**
 * "If the value is used by another [discount of the type], a DuplicateField error is returned"
 * (ProductDiscountDraft / CartDiscountDraft.sortOrder). A read before the write, as for the other
 * unique fields checked in the gateway (shipping-methods/uniqueness.ts): two creates with one
 * sortOrder committing at the same moment can both pass.
 */
export async function assertSortOrderFree(db: Queryable, projectKey: string, typeId: string, sortOrder: string, selfId?: string): Promise<void> {
  const found = await db.query<{ id: string }>(`SELECT id FROM resources WHERE project_key = $1 AND type_id = $2 AND id <> $3 AND doc @> $4::jsonb LIMIT 1`, [
    projectKey,
    typeId,
    selfId ?? '',
    JSON.stringify({ sortOrder }),
  ]);
  if (found.rows.length > 0) throw duplicateField('sortOrder', sortOrder);
}

/**
 * "If the value is used by another Cart Discount or Discount Group, a DuplicateField error is
 * returned" (CartDiscountDraft / DiscountGroupDraft.sortOrder): one space of sort orders for both
 * types. A Cart Discount in a group uses the group's sort order (CartDiscount.sortOrder), so only
 * discounts without a `discountGroup` hold one of their own. A read before the write, as above.
 */
export async function assertCartSortOrderFree(db: Queryable, projectKey: string, sortOrder: string, selfId?: string): Promise<void> {
  const found = await db.query<{ id: string }>(
    `SELECT id FROM resources WHERE project_key = $1 AND type_id IN ('cart-discount', 'discount-group') AND id <> $2 AND doc @> $3::jsonb
       AND NOT (doc ? 'discountGroup') LIMIT 1`,
    [projectKey, selfId ?? '', JSON.stringify({ sortOrder })],
  );
  if (found.rows.length > 0) throw duplicateField('sortOrder', sortOrder);
}
