import { ApiError } from '@herald/model';
import type { Queryable } from '@herald/store';
import type { Cart } from '../carts/cart.js';
import { codeUsage } from '../carts/discounting.js';
import { DISCOUNT_CODE_TYPE_ID, type DiscountCode } from '../discount-codes/discount-code.js';

/*
 * The discount codes of a cart becoming an order (types/cart/DiscountCodeState.raml: "If an Order
 * is created from a Cart with a state other than MatchesCart …, a DiscountCodeNonApplicable error
 * is returned"). maxApplications and maxApplicationsPerCustomer are "counted at the time of Order
 * creation": the check runs in the order's transaction, the codes' rows locked, so two orders
 * cannot both take a code's last application.
 */

function nonApplicable(codeId: string, code: DiscountCode | undefined, reason: string): ApiError {
  return new ApiError(400, {
    code: 'DiscountCodeNonApplicable',
    message: `The discountCode ${codeId} cannot be applied to the cart: ${reason}.`,
    discountCodeId: codeId,
    ...(code === undefined ? {} : { discountCode: code.code }),
  });
}

/** The cart's codes, locked until the order's transaction ends. */
async function lockedCodes(db: Queryable, projectKey: string, ids: readonly string[]): Promise<DiscountCode[]> {
  const found = await db.query<{ doc: DiscountCode }>(
    `SELECT doc FROM resources WHERE project_key = $1 AND type_id = $2 AND id = ANY($3::text[]) ORDER BY id FOR UPDATE`,
    [projectKey, DISCOUNT_CODE_TYPE_ID, ids],
  );
  return found.rows.map((row) => row.doc);
}

/** Refuses the order when a code does not match, or its applications are used up (counted within `db`'s transaction). */
export async function assertCodesApplicable(db: Queryable, projectKey: string, cart: Cart): Promise<void> {
  if (cart.discountCodes.length === 0) return;
  for (const { discountCode, state } of cart.discountCodes) {
    if (state !== 'MatchesCart') throw nonApplicable(discountCode.id, undefined, `its state is ${state}`);
  }
  const codes = await lockedCodes(
    db,
    projectKey,
    cart.discountCodes.map((info) => info.discountCode.id),
  );
  const usage = await codeUsage({ projectKey, db, load: async () => undefined }, codes, cart.customerId);
  for (const code of codes) {
    const used = usage.get(code.id);
    if (used === undefined) continue;
    const total = code.maxApplications !== undefined && used.total >= code.maxApplications;
    const perCustomer = code.maxApplicationsPerCustomer !== undefined && cart.customerId !== undefined && used.byCustomer >= code.maxApplicationsPerCustomer;
    if (total || perCustomer) throw nonApplicable(code.id, code, 'its state is MaxApplicationReached');
  }
}
