import { ApiError, resourceNotFound, type KeyReference } from '@herald/model';
import type { Locator, TransactionReader } from '@herald/store';
import { readerLookup, requireAssociate } from '../../resources/business-units/associates.js';
import { cartActions, myCartActions } from '../../resources/carts/actions.js';
import type { Buyer } from '../../resources/shared/buyer.js';
import type { Cart } from '../../resources/carts/cart.js';
import { expectedVersion } from '../../http/version.js';
import { applyActions, type ActionHandlers } from '../../resources/shared/update-actions.js';
import { notFoundMessage } from '../../resources/shared/versioned-routes.js';
import type { Store } from '../../resources/stores/store.js';
import { hasScope, requireBuyer, requireScope, VIEW_STORES } from '../access.js';
import type { GraphQLContext } from '../context.js';
import { locatorOf, restActions, type InputObject } from '../inputs.js';
import type { IdOrKey } from './types.js';

export interface UpdateCartArgs extends IdOrKey {
  version: number;
  actions: readonly InputObject[];
}

function ownedBy(cart: Cart, buyer: Buyer): boolean {
  return 'customerId' in buyer ? cart.customerId === buyer.customerId : cart.anonymousId === buyer.anonymousId;
}

/**
 * §1.4: a cart that references a business unit is validated against the acting customer's
 * associate roles. An anonymous session is nobody's associate.
 */
async function checkBusinessUnit(
  cart: Cart,
  before: Cart['businessUnit'],
  buyer: Buyer | undefined,
  context: GraphQLContext,
  reader: TransactionReader,
): Promise<void> {
  if (cart.businessUnit === undefined || cart.businessUnit.key === before?.key || buyer === undefined) return;
  if ('anonymousId' in buyer) {
    throw new ApiError(403, {
      code: 'AssociateMissingPermission',
      message: `An anonymous session cannot act for the business unit '${cart.businessUnit.key}'; sign in as one of its associates.`,
    });
  }
  await requireAssociate(readerLookup(reader), context.projectKey, { key: cart.businessUnit.key }, buyer.customerId);
}

interface CartUpdate {
  handlers: ActionHandlers<Cart>;
  /** My Cart: the cart must be this buyer's. */
  owner?: Buyer;
  /** Who acts, for the associate check. */
  actor: Buyer | undefined;
}

/** The carts module's own action handlers, applied like its REST routes do, in one transaction. */
async function updateCart(context: GraphQLContext, locator: Locator, version: number, inputs: readonly InputObject[], update: CartUpdate): Promise<Cart> {
  const actions = restActions(inputs);
  return context.services.documents.update<Cart>(context.request.write, 'cart', locator, version, async (cart, reader) => {
    if (update.owner !== undefined && !ownedBy(cart, update.owner)) throw resourceNotFound(notFoundMessage('cart', locator));
    const before = cart.businessUnit;
    const messages = await applyActions(update.handlers, cart, actions, { ctx: context.request, reader });
    await checkBusinessUnit(cart, before, update.actor, context, reader);
    return { doc: cart, messages };
  });
}

/** The token's customer, if it names one: API clients acting for a customer are checked too. */
function actingCustomer(context: GraphQLContext): Buyer | undefined {
  return context.auth.customerId === undefined ? undefined : { customerId: context.auth.customerId };
}

/** The official schema's Cart fields beside what the cart stores (schema/carts.ts). */
export const cartFieldResolvers = {
  businessUnitRef: (cart: Cart): KeyReference<'business-unit'> | null => cart.businessUnit ?? null,
  storeRef: (cart: Cart): KeyReference<'store'> | null => cart.store ?? null,
  /** Like BusinessUnit.stores: the Store needs view_stores, as REST reference expansion does. */
  async store(cart: Cart, _args: unknown, context: GraphQLContext): Promise<Store | null> {
    if (cart.store === undefined || !hasScope(context.auth, VIEW_STORES)) return null;
    return (await context.loaders.storeByKey.load(cart.store.key)) ?? null;
  },
};

export const cartMutationResolvers = {
  updateCart(_root: unknown, args: UpdateCartArgs, context: GraphQLContext): Promise<Cart> {
    requireScope(context.auth, 'manage_orders');
    return updateCart(context, locatorOf(args), expectedVersion(args.version), args.actions, { handlers: cartActions, actor: actingCustomer(context) });
  },

  /** §4.3 My Cart: the token's buyer's own cart; another's answers like a missing one. */
  async updateMyCart(_root: unknown, args: UpdateCartArgs & { id: string }, context: GraphQLContext): Promise<Cart> {
    requireScope(context.auth, 'manage_my_orders');
    const buyer = requireBuyer(context.auth);
    const locator = { id: args.id };
    const current = await context.services.documents.get<Cart>(context.projectKey, 'cart', locator);
    if (current === undefined || !ownedBy(current, buyer)) throw resourceNotFound(notFoundMessage('cart', locator));
    return updateCart(context, locator, expectedVersion(args.version), args.actions, { handlers: myCartActions, owner: buyer, actor: buyer });
  },
};
