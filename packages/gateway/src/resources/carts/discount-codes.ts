import { ApiError, duplicateField, invalidInput, invalidOperation } from '@herald/model';
import type { Queryable } from '@herald/store';
import { CART_DISCOUNT_TYPE_ID, type CartDiscount } from '../cart-discounts/cart-discount.js';
import { isValidAt } from '../discounts/validity.js';
import { DISCOUNT_CODE_TYPE_ID, type DiscountCode } from '../discount-codes/discount-code.js';
import { identifierLocator } from '../shared/references.js';
import type { Cart } from './cart.js';
import type { CatalogueReads } from './catalogue.js';

/*
 * A cart's discount codes (CartAddDiscountCodeAction, CartRemoveDiscountCodeAction, CartDraft
 * `discountCodes: [string]`): the cart holds DiscountCodeInfo {discountCode, state}; the state is
 * computed by the cart discounts at every write (discounting.ts).
 */

/** Cart.discountCodes: "maxItems: 10". */
const MAX_CODES = 10;

/** DiscountCodeNonApplicable (types/error/DiscountCodeNonApplicableError.raml). */
function nonApplicable(code: string, details: { reason?: string; discountCodeId?: string; validFrom?: string; validUntil?: string; now?: Date }): ApiError {
  const { now, ...rest } = details;
  return new ApiError(400, {
    code: 'DiscountCodeNonApplicable',
    message: `The discountCode ${details.discountCodeId ?? code} cannot be applied to the cart.`,
    discountCode: code,
    ...rest,
    ...(now === undefined ? {} : { validityCheckTime: now.toISOString() }),
  });
}

/** The DiscountCode whose `code` is `text` (codes are unique in a project: DiscountCodeDraft.code). */
export async function discountCodeByText(db: Queryable, projectKey: string, text: string): Promise<DiscountCode | undefined> {
  const found = await db.query<{ doc: DiscountCode }>(`SELECT doc FROM resources WHERE project_key = $1 AND type_id = $2 AND doc @> $3::jsonb LIMIT 1`, [
    projectKey,
    DISCOUNT_CODE_TYPE_ID,
    JSON.stringify({ code: text }),
  ]);
  return found.rows[0]?.doc;
}

function codeText(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 256) {
    throw invalidInput(`'${field}' must be a discount code of 1 to 256 characters.`, { field, invalidValue: value });
  }
  return value;
}

/**
 * CartAddDiscountCodeAction: "If the related Cart Discounts are inactive or invalid, or belong to a
 * different Store than the Cart, a DiscountCodeNonApplicableError is returned"; an unknown code is
 * that error with reason DoesNotExist, a code outside its validity with TimeRangeNonApplicable.
 */
async function applicableCode(text: string, cart: Cart, reads: CatalogueReads, now: Date): Promise<DiscountCode> {
  const code = await discountCodeByText(reads.db, reads.projectKey, text);
  if (code === undefined) throw nonApplicable(text, { reason: 'DoesNotExist' });
  const validity = {
    discountCodeId: code.id,
    ...(code.validFrom === undefined ? {} : { validFrom: code.validFrom }),
    ...(code.validUntil === undefined ? {} : { validUntil: code.validUntil }),
  };
  if (!isValidAt(code, now)) throw nonApplicable(text, { reason: 'TimeRangeNonApplicable', ...validity, now });
  const discounts: CartDiscount[] = [];
  for (const reference of code.cartDiscounts) {
    const discount = await reads.load<CartDiscount>(CART_DISCOUNT_TYPE_ID, { id: reference.id });
    if (discount !== undefined) discounts.push(discount);
  }
  const usable = discounts.filter((discount) => discount.isActive && isValidAt(discount, now));
  const inStore = usable.filter((discount) => discount.stores.length === 0 || discount.stores.some((store) => store.key === cart.store?.key));
  if (!code.isActive || inStore.length === 0) throw nonApplicable(text, { discountCodeId: code.id });
  return code;
}

/** Adds the code `text` to the cart (its state follows at the end of the write). */
export async function addDiscountCode(cart: Cart, value: unknown, field: string, reads: CatalogueReads, now: Date): Promise<void> {
  const text = codeText(value, field);
  const code = await applicableCode(text, cart, reads, now);
  if (cart.discountCodes.some((entry) => entry.discountCode.id === code.id)) throw duplicateField(field, text);
  if (cart.directDiscounts.length > 0) throw invalidOperation('A discount code cannot be added to a cart that has direct discounts.');
  if (cart.discountCodes.length >= MAX_CODES) throw invalidOperation(`A cart holds at most ${MAX_CODES} discount codes.`);
  cart.discountCodes.push({ discountCode: { typeId: DISCOUNT_CODE_TYPE_ID, id: code.id }, state: 'MatchesCart' });
}

/** CartRemoveDiscountCodeAction {discountCode: DiscountCodeReference}. */
export function removeDiscountCode(cart: Cart, value: unknown): void {
  if (value === undefined || value === null) throw invalidInput("'discountCode' is required.", { field: 'discountCode' });
  const locator = identifierLocator(value, 'discountCode', DISCOUNT_CODE_TYPE_ID);
  const id = 'id' in locator ? locator.id : undefined;
  if (id === undefined || !cart.discountCodes.some((entry) => entry.discountCode.id === id)) {
    throw invalidInput(`The cart has no discount code ${JSON.stringify(id ?? value)}.`, { field: 'discountCode' });
  }
  cart.discountCodes = cart.discountCodes.filter((entry) => entry.discountCode.id !== id);
}
