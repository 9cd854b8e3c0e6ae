import { ApiError } from '@herald/model';
import type { Queryable } from '@herald/store';
import { DISCOUNT_GROUP_TYPE_ID } from './discount-group.js';

/**
 * The docs' Discount Groups page: "each Project can have up to 100 Discount Groups";
 * MaxDiscountGroupsReachedError counts the active ones ("cannot be created or activated").
 * A read before the write, as the Cart Discount limits are (cart-discounts/limits.ts).
 */
export const MAX_ACTIVE_DISCOUNT_GROUPS = 100;

/** MaxDiscountGroupsReachedError: "Maximum number of active discount groups reached ($max)." */
const maxDiscountGroupsReached = (): ApiError =>
  new ApiError(400, { code: 'MaxDiscountGroupsReached', message: `Maximum number of active discount groups reached (${MAX_ACTIVE_DISCOUNT_GROUPS}).` });

/** 400 MaxDiscountGroupsReached when one more active group (other than `selfId`) would exceed the limit. */
export async function assertRoomForActiveGroup(db: Queryable, projectKey: string, selfId = ''): Promise<void> {
  const found = await db.query<{ count: string }>(
    `SELECT count(*) AS count FROM resources WHERE project_key = $1 AND type_id = $2 AND id <> $3 AND doc @> '{"isActive": true}'::jsonb`,
    [projectKey, DISCOUNT_GROUP_TYPE_ID, selfId],
  );
  if (Number(found.rows[0]?.count ?? 0) >= MAX_ACTIVE_DISCOUNT_GROUPS) throw maxDiscountGroupsReached();
}
