import type { Cart, CustomLineItem, LineItem } from './cart.js';
import { engineFields, NO_PRODUCT_TYPE, productIdForSku } from './line-items.js';

/*
 * Carts written before Herald kept every field the reference's Cart, LineItem and CustomLineItem
 * require get them, with the values new carts get, whenever they are read for an answer. The
 * stored document is not changed (its next update writes the full shape).
 */

/** The fields engineFields() fills, named once from it. */
const ENGINE_FIELDS = Object.keys(engineFields()) as ReadonlyArray<keyof ReturnType<typeof engineFields>>;

/** The top-level fields a stored cart may lack, with the values new carts get (fresh arrays per call). */
function cartDefaults(): Pick<Cart, 'origin' | 'priceRoundingMode' | 'shippingMode' | 'shipping' | 'refusedGifts'> {
  return { origin: 'Customer', priceRoundingMode: 'HalfEven', shippingMode: 'Single', shipping: [], refusedGifts: [] };
}

const CART_DEFAULT_FIELDS = Object.keys(cartDefaults()) as ReadonlyArray<keyof ReturnType<typeof cartDefaults>>;

/** The defaults of the fields `cart` lacks (absent or null). */
function missingDefaults(cart: Cart): Partial<Cart> {
  const stored: Partial<Cart> = cart;
  const defaults = cartDefaults();
  return Object.fromEntries(CART_DEFAULT_FIELDS.filter((field) => stored[field] == null).map((field) => [field, defaults[field]]));
}

/** Whether an item already has the fields engineFields() fills (every item Herald writes now has them). */
function hasEngineFields(item: LineItem | CustomLineItem): boolean {
  const stored: Partial<LineItem | CustomLineItem> = item;
  return ENGINE_FIELDS.every((field) => stored[field] !== undefined);
}

function hasRequiredLineItemFields(item: LineItem): boolean {
  const stored: Partial<LineItem> = item;
  return (
    hasEngineFields(item) &&
    stored.productId !== undefined &&
    stored.productType !== undefined &&
    (item.variant as Partial<LineItem['variant']>).id !== undefined
  );
}

/**
 * Whether a cart has every field withRequiredCartFields would fill, so that it can be answered as
 * it is: copying every line item of every cart answered cost a cart create more than its pricing.
 */
function hasRequiredCartFields(cart: Cart): boolean {
  const stored: Partial<Cart> = cart;
  if (CART_DEFAULT_FIELDS.some((field) => stored[field] == null)) return false;
  if (!cart.discountCodes.every((entry) => 'discountCode' in entry)) return false;
  if (!cart.lineItems.every(hasRequiredLineItemFields) || !cart.customLineItems.every(hasEngineFields)) return false;
  return cart.lineItems.length === 0 || stored.totalLineItemQuantity === cart.lineItems.reduce((total, item) => total + item.quantity, 0);
}

function lineItemWithRequiredFields(item: LineItem): LineItem {
  const stored: Partial<LineItem> = item;
  const sku = item.variant.sku ?? '';
  return {
    ...engineFields(),
    ...item,
    productId: stored.productId ?? productIdForSku(sku),
    productType: stored.productType ?? { ...NO_PRODUCT_TYPE },
    variant: { ...item.variant, id: (item.variant as Partial<LineItem['variant']>).id ?? 1 },
  };
}

function customLineItemWithRequiredFields(item: CustomLineItem): CustomLineItem {
  return { ...engineFields(), ...item };
}

/**
 * The same fields filled in place on a stored cart about to be updated: the update actions (and
 * settling) use them, and the write then stores the full shape. Nothing stored is dropped (a
 * `{code}` discount code entry stays for discounting.ts to look up).
 */
export function fillRequiredCartFields(cart: Cart): void {
  const { discountCodes } = cart;
  Object.assign(cart, withRequiredCartFields(cart), { discountCodes });
}

/** The cart with every required field: itself when it has them all (not a copy), else a copy with the defaults. */
export function withRequiredCartFields(cart: Cart): Cart {
  if (hasRequiredCartFields(cart)) return cart;
  const lineItems = cart.lineItems.map(lineItemWithRequiredFields);
  const quantity = lineItems.reduce((total, item) => total + item.quantity, 0);
  return {
    ...cart,
    ...missingDefaults(cart),
    lineItems,
    customLineItems: cart.customLineItems.map(customLineItemWithRequiredFields),
    // Codes stored as `{code}` (before DiscountCodeInfo held a reference) have no reference to answer; the next write looks them up (discounting.ts).
    discountCodes: cart.discountCodes.filter((entry) => 'discountCode' in entry),
    ...(lineItems.length === 0 ? {} : { totalLineItemQuantity: quantity }),
  };
}
