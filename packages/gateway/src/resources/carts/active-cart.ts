import type { Queryable } from '@herald/store';
import type { Buyer } from '../shared/buyer.js';
import type { Cart } from './cart.js';
import { withRequiredCartFields } from './required-fields.js';

/**
 * The active cart of a buyer, as the reference's "Get Cart by Customer ID", "Get My active Cart"
 * and the sign-in result define it: the most recently modified cart in state `Active` of that
 * customer (or anonymous session) with CartOrigin `Customer` (carts a merchant created or a quote
 * made are ignored), in the store when one is given. Carts written before Herald kept `origin`
 * count as the default, `Customer`.
 */
export async function findActiveCart(db: Queryable, projectKey: string, buyer: Buyer, storeKey?: string): Promise<Cart | undefined> {
  const [ownerPath, owner] = 'customerId' in buyer ? ['customerId', buyer.customerId] : ['anonymousId', buyer.anonymousId];
  const inStore = storeKey === undefined ? '' : "AND doc #>> '{store,key}' = $4";
  const result = await db.query<{ doc: Cart }>(
    `SELECT doc FROM resources
     WHERE project_key = $1 AND type_id = 'cart' AND doc ->> $2::text = $3
       AND doc ->> 'cartState' = 'Active' AND coalesce(doc ->> 'origin', 'Customer') = 'Customer' ${inStore}
     ORDER BY last_modified_at DESC, id DESC
     LIMIT 1`,
    [projectKey, ownerPath, owner, ...(storeKey === undefined ? [] : [storeKey])],
  );
  const cart = result.rows[0]?.doc;
  return cart === undefined ? undefined : withRequiredCartFields(cart);
}
