import { invalidInput, invalidOperation } from '@herald/model';
import type { DocumentStore, WriteContext } from '@herald/store';
import { findActiveCart } from './active-cart.js';
import type { Cart } from './cart.js';
import { oneOf } from './draft.js';
import { assertUniqueItemKeys, mergeLineItem, recalculate } from './line-items.js';
import { identifierLocator } from '../shared/references.js';

/** AnonymousCartSignInMode (the reference's enumeration, default MergeWithExistingCustomerCart). */
export const SIGN_IN_MODES = ['MergeWithExistingCustomerCart', 'UseAsNewActiveCustomerCart'] as const;
export type SignInMode = (typeof SIGN_IN_MODES)[number];

export function signInMode(value: unknown, field: string): SignInMode {
  return oneOf(SIGN_IN_MODES, value, field, 'MergeWithExistingCustomerCart');
}

/**
 * The anonymous cart a sign-in names: CustomerSignin's `anonymousCart` (or the deprecated
 * `anonymousCartId`), else the most recently modified active cart of the anonymous session
 * (`anonymousId`, or the anonymous token of `/me/login`). It must be active and nobody's yet.
 */
export async function anonymousCartOf(
  documents: DocumentStore,
  projectKey: string,
  named: unknown,
  anonymousId: string | undefined,
  storeKey: string | undefined,
): Promise<Cart | undefined> {
  if (named !== undefined && named !== null) {
    const cart = await documents.get<Cart>(projectKey, 'cart', identifierLocator(named, 'anonymousCart', 'cart'));
    if (cart === undefined || cart.customerId !== undefined || cart.cartState !== 'Active') {
      throw invalidInput("'anonymousCart' must be an active cart without a customer.", { field: 'anonymousCart' });
    }
    return cart;
  }
  return anonymousId === undefined ? undefined : findActiveCart(documents.db, projectKey, { anonymousId }, storeKey);
}

/**
 * Sign-in with an anonymous cart (reference: "Cart merge during sign-in"): without an active
 * customer cart, or with `UseAsNewActiveCustomerCart`, the anonymous cart becomes the customer's;
 * otherwise its items are merged into the customer's active cart (items of the same product and
 * variant add up) and the anonymous cart is left `Merged`. Both carts change in one transaction.
 */
export async function signInWithAnonymousCart(
  documents: DocumentStore,
  write: WriteContext,
  customerId: string,
  anonymous: Cart,
  mode: SignInMode,
  storeKey: string | undefined,
): Promise<Cart> {
  return documents.db.transaction(async (tx) => {
    const within = documents.within(tx);
    const existing = await findActiveCart(tx, write.projectKey, { customerId }, storeKey);
    if (existing === undefined || mode === 'UseAsNewActiveCustomerCart') {
      return within.update<Cart>(write, 'cart', { id: anonymous.id }, anonymous.version, (cart) => {
        cart.customerId = customerId;
        return { doc: cart, messages: [] };
      });
    }
    if (existing.totalPrice.currencyCode !== anonymous.totalPrice.currencyCode) {
      throw invalidOperation(
        `The anonymous cart is in ${anonymous.totalPrice.currencyCode}, the customer's active cart in ${existing.totalPrice.currencyCode}: they cannot be merged.`,
      );
    }
    await within.update<Cart>(write, 'cart', { id: anonymous.id }, anonymous.version, (cart) => ({ doc: { ...cart, cartState: 'Merged' }, messages: [] }));
    return within.update<Cart>(write, 'cart', { id: existing.id }, existing.version, (cart) => {
      for (const item of anonymous.lineItems) mergeLineItem(cart.lineItems, { ...item });
      cart.customLineItems.push(...anonymous.customLineItems);
      assertUniqueItemKeys(cart);
      recalculate(cart);
      return { doc: cart, messages: [] };
    });
  });
}
