import type { ResourceDefinition } from '../shared/versioned-routes.js';
import { cartActions } from './actions.js';
import type { Cart } from './cart.js';
import { cartFromDraft } from './draft.js';
import { withRequiredCartFields } from './required-fields.js';

export const CART_SCOPES = { view: ['view_orders'], manage: ['manage_orders'] } as const;
/** `/me/carts` act for the token's buyer (§5.3: `manage_my_orders`). */
export const MY_CART_SCOPES = { view: [], manage: ['manage_my_orders'] } as const;

/** `/{projectKey}/carts`: carts of every buyer, for API clients. */
export const cartDefinition: ResourceDefinition<Cart> = {
  typeId: 'cart',
  path: 'carts',
  scopes: CART_SCOPES,
  fromDraft: (body, ctx) => cartFromDraft(body, ctx, {}),
  actions: cartActions,
  // Carts hold names and addresses: deletes accept `dataErasure` (§4.4.9).
  personalData: true,
  present: withRequiredCartFields,
};
