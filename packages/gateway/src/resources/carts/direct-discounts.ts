import { randomUUID } from 'node:crypto';
import { ApiError, invalidInput, invalidOperation, requiredField } from '@herald/model';
import type { CartDiscount, CartDiscountTarget, CartDiscountValue } from '../cart-discounts/cart-discount.js';
import { assertValueFitsTarget, cartDiscountTarget } from '../cart-discounts/target.js';
import { cartDiscountValue } from '../cart-discounts/value.js';
import type { Load } from '../shared/references.js';
import type { ActionHandlers } from '../shared/update-actions.js';
import { asDraft } from '../shared/validation.js';
import type { Cart } from './cart.js';

/*
 * Direct Discounts (types/cart/DirectDiscount*.raml, CartSetDirectDiscountsAction): cart discounts
 * of one cart only. "Either a Discount Code or a Direct Discount can exist on a Cart at the same
 * time"; while a cart has Direct Discounts, they are the cart discounts that apply (discounting.ts),
 * "in the order they are added to the list", through the same engine as the project's ones.
 */

/** The reference gives no bound; this one keeps a cart document reasonable. */
const MAX_DIRECT_DISCOUNTS = 100;

/** The reference's DirectDiscount. */
export interface DirectDiscount {
  id: string;
  value: CartDiscountValue;
  target?: CartDiscountTarget;
}

/** An error of the shared value/target checks, its `field` named from the action (`discounts[0].value.permyriad`). */
function underField(error: unknown, prefix: string): unknown {
  if (!(error instanceof ApiError)) return error;
  const [first, ...more] = error.errors.map((each) => (typeof each.field === 'string' ? { ...each, field: `${prefix}.${each.field}` } : each));
  return first === undefined ? error : new ApiError(error.statusCode, first, more);
}

async function directDiscount(value: unknown, field: string, load: Load): Promise<DirectDiscount> {
  const draft = asDraft(value, `'${field}' DirectDiscountDraft`);
  if (draft.value === undefined || draft.value === null) throw requiredField(`${field}.value`);
  try {
    const discountValue = await cartDiscountValue(draft.value, load, 'value');
    const target = draft.target === undefined || draft.target === null ? undefined : cartDiscountTarget(draft.target).target;
    // DirectDiscountDraft.target: "If `value` is set to `giftLineItem`, this must not be set" (its gift: gift-line-items.ts).
    assertValueFitsTarget(discountValue, target);
    return { id: randomUUID(), value: discountValue, ...(target === undefined ? {} : { target }) };
  } catch (error) {
    throw underField(error, field);
  }
}

/**
 * A Direct Discount as the engine's CartDiscount: active, always valid, every cart matching,
 * stacking; its sortOrder falling with its position, so the first of the list applies first.
 */
export function asCartDiscount(discount: DirectDiscount, index: number): CartDiscount {
  return {
    id: discount.id,
    version: 1,
    createdAt: '',
    lastModifiedAt: '',
    name: {},
    value: discount.value,
    cartPredicate: '1 = 1',
    ...(discount.target === undefined ? {} : { target: discount.target }),
    sortOrder: `0.${String(MAX_DIRECT_DISCOUNTS * 10 - 1 - index).padStart(4, '0')}`,
    stores: [],
    isActive: true,
    requiresDiscountCode: false,
    references: [],
    stackingMode: 'Stacking',
    recurringOrderScope: { type: 'AnyOrder' },
  };
}

/** API Clients only: MyCartUpdateAction has no setDirectDiscounts. */
export const directDiscountActions: ActionHandlers<Cart> = {
  async setDirectDiscounts(cart, action, { ctx }) {
    const list = action.discounts;
    if (list === undefined || list === null) throw requiredField('discounts');
    if (!Array.isArray(list) || list.length > MAX_DIRECT_DISCOUNTS) {
      throw invalidInput(`'discounts' must be an array of at most ${MAX_DIRECT_DISCOUNTS} DirectDiscountDrafts.`, { field: 'discounts' });
    }
    if (list.length > 0 && cart.discountCodes.length > 0) {
      throw invalidOperation('The cart has discount codes: Direct Discounts can only be set on a cart without them.');
    }
    const discounts: DirectDiscount[] = [];
    for (const [index, value] of list.entries()) discounts.push(await directDiscount(value, `discounts[${index}]`, ctx.load));
    // The replaced Direct Discounts' refused gifts go with them (gift-line-items.ts).
    const replaced = new Set(cart.directDiscounts.map((discount) => discount.id));
    cart.refusedGifts = cart.refusedGifts.filter((reference) => !replaced.has(reference.id));
    cart.directDiscounts = discounts;
  },
};
