import type { BaseResource } from '@herald/model';
import { holdsNoItemsSql, type Queryable } from '@herald/store';

/**
 * The platform's limits keep active discounts few (500 product discounts, a few hundred cart
 * discounts), so pricing reads them all; this bounds the read where a project exceeds them.
 */
export const MAX_ACTIVE = 2_000;

/**
 * `columns` of the active discounts of the type in `typeParam` in the project $1 (one `@>` the GIN
 * index answers: its condition is written out, as the read-ahead's statement is prepared).
 */
export const activeDiscountsSql = (columns: string, typeParam: string): string =>
  `SELECT ${columns} FROM resources r WHERE r.project_key = $1 AND r.type_id = ${typeParam} AND ${holdsNoItemsSql('r')} AND r.doc @> '{"isActive": true}'::jsonb LIMIT ${MAX_ACTIVE}`;

/** Every active discount of `typeId` in the project; highest sortOrder first is the caller's job. */
export async function activeDiscounts<D extends BaseResource>(db: Queryable, projectKey: string, typeId: string): Promise<D[]> {
  const found = await db.query<{ doc: D }>(activeDiscountsSql('doc', '$2'), [projectKey, typeId]);
  return found.rows.map((row) => row.doc);
}
