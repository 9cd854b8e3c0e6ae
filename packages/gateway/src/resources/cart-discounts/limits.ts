import { ApiError, type KeyReference } from '@herald/model';
import type { Queryable } from '@herald/store';
import { CART_DISCOUNT_TYPE_ID, type CartDiscount } from './cart-discount.js';

/**
 * The platform's limits on active cart discounts (the reference's CartDiscount description and
 * its Limits page): at most 100 active cart discounts that require no discount code
 * (isActive=true, requiresDiscountCode=false) independent of a Store, and at most 100 more per
 * Store. Discounts that require a code are not limited. Checked by a read before the write, as
 * the unique sortOrder is (discounts/sort-order.ts): two writes at the same moment can both pass.
 */
export const MAX_ACTIVE_WITHOUT_CODE = 100;
export const MAX_ACTIVE_WITHOUT_CODE_PER_STORE = 100;

type Limited = Pick<CartDiscount, 'isActive' | 'requiresDiscountCode' | 'stores'>;

/** Whether the discount counts against a limit at all. */
export const countsAgainstLimits = (discount: Limited): boolean => discount.isActive && !discount.requiresDiscountCode;

/** MaxCartDiscountsReachedError: "Maximum number of active cart discounts reached ($max)." */
const maxCartDiscountsReached = (): ApiError =>
  new ApiError(400, { code: 'MaxCartDiscountsReached', message: `Maximum number of active cart discounts reached (${MAX_ACTIVE_WITHOUT_CODE}).` });

/** StoreCartDiscountsLimitReachedError, naming the Stores whose limit is reached. */
const storeCartDiscountsLimitReached = (stores: Array<KeyReference<'store'>>): ApiError =>
  new ApiError(400, {
    code: 'StoreCartDiscountsLimitReached',
    message: `Maximum number of active cart discounts reached for ${stores.map((store) => store.key).join(', ')}.`,
    stores,
  });

/** The other counted discounts independent of a Store (`stores` empty; `@>` cannot say "empty array"). */
async function projectCount(db: Queryable, projectKey: string, selfId: string): Promise<number> {
  const found = await db.query<{ count: string }>(
    `SELECT count(*) AS count FROM resources WHERE project_key = $1 AND type_id = $2 AND id <> $3
       AND doc @> '{"isActive": true, "requiresDiscountCode": false}'::jsonb AND jsonb_array_length(doc->'stores') = 0`,
    [projectKey, CART_DISCOUNT_TYPE_ID, selfId],
  );
  return Number(found.rows[0]?.count ?? 0);
}

/** The keys among `storeKeys` that already have the per-Store maximum of other counted discounts. */
async function fullStores(db: Queryable, projectKey: string, selfId: string, storeKeys: readonly string[]): Promise<string[]> {
  const found = await db.query<{ key: string }>(
    `SELECT s.key FROM unnest($3::text[]) AS s(key) JOIN resources r ON r.project_key = $1 AND r.type_id = $2 AND r.id <> $4
       AND r.doc @> jsonb_build_object('isActive', true, 'requiresDiscountCode', false, 'stores', jsonb_build_array(jsonb_build_object('key', s.key)))
     GROUP BY s.key HAVING count(*) >= $5`,
    [projectKey, CART_DISCOUNT_TYPE_ID, storeKeys, selfId, MAX_ACTIVE_WITHOUT_CODE_PER_STORE],
  );
  return found.rows.map((row) => row.key);
}

/** 400 StoreCartDiscountsLimitReached when any of `stores` is full (CartDiscountDraft.stores, addStore, setStores). */
export async function assertStoresHaveRoom(db: Queryable, projectKey: string, stores: Array<KeyReference<'store'>>, selfId = ''): Promise<void> {
  if (stores.length === 0) return;
  const full = new Set(
    await fullStores(
      db,
      projectKey,
      selfId,
      stores.map((store) => store.key),
    ),
  );
  if (full.size > 0) throw storeCartDiscountsLimitReached(stores.filter((store) => full.has(store.key)));
}

/**
 * 400 MaxCartDiscountsReached when one more counted discount would exceed its limit (create,
 * changeIsActive, changeRequiresDiscountCode: the operations MaxCartDiscountsReachedError names).
 * A discount of Stores counts against each of its Stores' limits instead of the Project's.
 */
export async function assertRoomForActive(db: Queryable, projectKey: string, discount: Limited, selfId = ''): Promise<void> {
  if (!countsAgainstLimits(discount)) return;
  if (discount.stores.length > 0) {
    if (
      (
        await fullStores(
          db,
          projectKey,
          selfId,
          discount.stores.map((store) => store.key),
        )
      ).length > 0
    )
      throw maxCartDiscountsReached();
    return;
  }
  if ((await projectCount(db, projectKey, selfId)) >= MAX_ACTIVE_WITHOUT_CODE) throw maxCartDiscountsReached();
}

/** A new discount (CartDiscountDraft): its Stores' limits when it has Stores, else the Project's. */
export async function assertRoomForNew(db: Queryable, projectKey: string, discount: Limited): Promise<void> {
  if (!countsAgainstLimits(discount)) return;
  if (discount.stores.length > 0) await assertStoresHaveRoom(db, projectKey, discount.stores);
  else await assertRoomForActive(db, projectKey, discount);
}
