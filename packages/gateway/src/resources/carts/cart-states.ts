import { invalidOperation } from '@herald/model';
import { oauthError } from '../../oauth/errors.js';
import { implies } from '../../oauth/scopes.js';
import type { AuthContext } from '../../auth/types.js';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import { oneOf } from './draft.js';
import type { Cart } from './cart.js';

/*
 * Frozen and locked carts (types/cart/CartState.raml `Frozen`, FreezeStrategy.raml, CartLock.raml;
 * CartFreezeCartAction, CartUnfreezeCartAction, CartLockCartAction, CartUnlockCartAction) and what
 * they refuse. The messages are the reference's CartFrozen, CartUnfrozen, CartLocked, CartUnlocked.
 */

export const FREEZE_STRATEGIES = ['SoftFreeze', 'HardFreeze'] as const;
export type FreezeStrategy = (typeof FREEZE_STRATEGIES)[number];

/** The reference's CartLock: when and by which API Client the cart was locked. */
export interface CartLock {
  createdAt: string;
  clientId: string;
}

/** The scope that locks, unlocks and changes a locked cart (CartLockCartAction). */
export const LOCKED_CARTS_SCOPE = 'manage_locked_carts';

/** CartState `Frozen`: "Update actions that can change the price of (Custom) Line Items are not allowed". */
const REFUSED_WHEN_FROZEN = new Set([
  'addLineItem',
  'changeLineItemQuantity',
  'removeLineItem',
  'setLineItemDistributionChannel',
  'setLineItemSupplyChannel',
  'addCustomLineItem',
  'changeCustomLineItemQuantity',
  'removeCustomLineItem',
  'changeTaxMode',
  'setLineItemPrice',
  'setLineItemTotalPrice',
  // Adds line items like addLineItem does (CartAddShoppingListAction).
  'addShoppingList',
]);

/**
 * `HardFreeze` also refuses a new shipping method (CartState) and "also freezes Cart Discounts,
 * Discount Codes, and Shipping Methods" (FreezeStrategy): the cart's codes and direct discounts stay.
 */
const REFUSED_WHEN_HARD_FROZEN = new Set([
  'setShippingMethod',
  'setCustomShippingMethod',
  // A `Multiple` cart's Shipping Methods (multi-shipping.ts) are frozen alike.
  'addShippingMethod',
  'addCustomShippingMethod',
  'removeShippingMethod',
  'addDiscountCode',
  'removeDiscountCode',
  'setDirectDiscounts',
]);

function assertAllowedWhileFrozen(cart: Cart, name: string): void {
  if (cart.cartState !== 'Frozen') return;
  if (REFUSED_WHEN_FROZEN.has(name)) throw invalidOperation(`The cart is Frozen: '${name}' would change the price of its items.`);
  if (cart.freezeStrategy === 'HardFreeze' && REFUSED_WHEN_HARD_FROZEN.has(name)) {
    throw invalidOperation(`The cart is frozen with the HardFreeze strategy: '${name}' is not allowed.`);
  }
}

function hasLockedCartsScope(auth: AuthContext | undefined): boolean {
  return auth !== undefined && implies(auth.scopes, LOCKED_CARTS_SCOPE);
}

function requireLockedCartsScope(auth: AuthContext | undefined, what: string): void {
  if (!hasLockedCartsScope(auth)) throw oauthError('insufficient_scope', `${what} needs the scope ${LOCKED_CARTS_SCOPE}.`);
}

/** A locked cart refuses every update "from API Clients without an elevated OAuth 2.0 Scope" (CartLockCartAction). */
function assertNotLockedFor(cart: Cart, auth: AuthContext | undefined): void {
  if (cart.lock !== undefined) requireLockedCartsScope(auth, `The cart is locked: changing it`);
}

/** Every handler refused where a frozen or locked cart does not allow it. */
export function guardedByCartState(handlers: ActionHandlers<Cart>): ActionHandlers<Cart> {
  return Object.fromEntries(
    Object.entries(handlers).map(([name, handler]): [string, ActionHandler<Cart>] => [
      name,
      (cart, action, scope) => {
        assertNotLockedFor(cart, scope.ctx.auth);
        assertAllowedWhileFrozen(cart, name);
        return handler(cart, action, scope);
      },
    ]),
  );
}

/** Freezing, unfreezing, locking and unlocking (API Clients only: MyCartUpdateAction has none of them). */
export const cartStateActions: ActionHandlers<Cart> = {
  /** CartFreezeCartAction: "If the Cart is empty, an InvalidOperation error is returned." */
  freezeCart(cart, action) {
    if (cart.cartState === 'Frozen') throw invalidOperation('The cart is already Frozen.');
    if (cart.lineItems.length === 0 && cart.customLineItems.length === 0) throw invalidOperation('An empty cart cannot be frozen.');
    cart.cartState = 'Frozen';
    cart.freezeStrategy = oneOf(FREEZE_STRATEGIES, action.strategy, 'strategy', 'SoftFreeze');
    return [{ type: 'CartFrozen' }];
  },
  /** CartUnfreezeCartAction: back to Active; the settle step then prices the cart from the catalogue again. */
  unfreezeCart(cart) {
    if (cart.cartState !== 'Frozen') throw invalidOperation(`The cart is ${cart.cartState}, not Frozen.`);
    cart.cartState = 'Active';
    delete cart.freezeStrategy;
    return [{ type: 'CartUnfrozen' }];
  },
  lockCart(cart, _action, { ctx }) {
    requireLockedCartsScope(ctx.auth, 'lockCart');
    if (cart.lock !== undefined) throw invalidOperation('The cart is already locked.');
    cart.lock = { createdAt: new Date().toISOString(), clientId: ctx.auth?.clientId ?? '' };
    return [{ type: 'CartLocked' }];
  },
  unlockCart(cart, _action, { ctx }) {
    requireLockedCartsScope(ctx.auth, 'unlockCart');
    if (cart.lock === undefined) throw invalidOperation('The cart is not locked.');
    delete cart.lock;
    return [{ type: 'CartUnlocked' }];
  },
};
