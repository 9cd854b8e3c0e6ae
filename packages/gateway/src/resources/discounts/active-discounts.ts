import type { BaseResource } from '@herald/model';
import type { Queryable } from '@herald/store';

/**
 * The platform's limits keep active discounts few (500 product discounts, a few hundred cart
 * discounts), so pricing reads them all; this bounds the read where a project exceeds them.
 */
export const MAX_ACTIVE = 2_000;

/** Every active discount of `typeId` in the project (one `@>` the GIN index answers), highest sortOrder first is the caller's job. */
export async function activeDiscounts<D extends BaseResource>(db: Queryable, projectKey: string, typeId: string): Promise<D[]> {
  const found = await db.query<{ doc: D }>(
    `SELECT doc FROM resources WHERE project_key = $1 AND type_id = $2 AND doc @> '{"isActive": true}'::jsonb LIMIT ${MAX_ACTIVE}`,
    [projectKey, typeId],
  );
  return found.rows.map((row) => row.doc);
}
