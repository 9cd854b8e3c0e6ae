import { concurrentModification, invalidOperation, requiredField } from '@herald/model';
import type { DocumentStore, Locator, ServerFields } from '@herald/store';
import { requireBusinessUnitBuyer } from '../business-units/business-unit-buyer.js';
import type { Cart } from '../carts/cart.js';
import { deductInventory } from '../carts/order-inventory.js';
import { assertShippingMatches } from '../carts/shipping.js';
import { inheritedCustom } from '../quotes/custom.js';
import { writeTogether } from '../quotes/together.js';
import { sourceVersion } from '../quotes/workflow.js';
import type { Buyer } from '../shared/buyer.js';
import type { RequestContext } from '../shared/context.js';
import { identifierLocator, referencedResourceNotFound } from '../shared/references.js';
import { asDraft, optionalString, type Draft } from '../shared/validation.js';
import { assertCodesApplicable } from './discount-codes.js';
import { assertOrderNumberFree, orderCreated, orderDraftFields, orderShippingInfo } from './fields.js';
import { initialLineItemState, withItemStates } from './item-states.js';
import { ORDER_CUSTOM_FIELDS_TYPE_ID, type Order } from './order.js';

type OrderFields = Omit<Order, ServerFields>;

/** OrderFromCartDraft names the cart by `cart` (or the deprecated `id`); MyOrderFromCartDraft by `id`. */
function cartLocator(draft: Draft): Locator {
  if (draft.cart !== undefined && draft.cart !== null) return identifierLocator(draft.cart, 'cart', 'cart');
  if (typeof draft.id === 'string') return { id: draft.id };
  throw requiredField('cart');
}

const owns = (cart: Cart, buyer: Buyer): boolean => ('customerId' in buyer ? cart.customerId === buyer.customerId : cart.anonymousId === buyer.anonymousId);

/**
 * An Active cart, or a Frozen one: freezing keeps a cart's prices for checkout (CartState.raml
 * "Frozen", FrozenCarts), so the order takes them as they were frozen.
 */
const isOrderable = (cart: Cart): boolean => cart.cartState === 'Active' || cart.cartState === 'Frozen';
const notOrderable = (cart: Cart) => invalidOperation(`The cart '${cart.id}' is ${cart.cartState}; only an Active or Frozen cart can be ordered.`);

/**
 * Reference: "The Cart must have a shipping address set, regardless of the TaxMode." A `Multiple`
 * cart's addresses are its Shippings' (Cart.shippingAddress is for the `Single` mode), so it needs a Shipping.
 */
function assertShippingAddress(cart: Cart): void {
  if (cart.shippingMode === 'Multiple') {
    if (cart.shipping.length === 0)
      throw invalidOperation(`The cart '${cart.id}' has no shipping; an order can only be created from a Multiple cart with one.`);
    return;
  }
  if (cart.shippingAddress === undefined) {
    throw invalidOperation(`The cart '${cart.id}' has no shipping address; an order can only be created from a cart with one.`);
  }
}

/** A `Multiple` cart's Shippings as the order's (reference Order.shipping): each ShippingInfo with its deliveries. */
function orderShipping(shipping: Cart['shipping']): Order['shipping'] {
  return shipping.map((entry) => ({ ...entry, shippingInfo: { ...entry.shippingInfo, deliveries: entry.shippingInfo.deliveries ?? [] } }));
}

/** The carts an order can be made from (reference resources/orders.raml "Create Order"). */
function assertOrderable(cart: Cart, version: number): void {
  if (cart.version !== version) throw concurrentModification(cart.version, version);
  if (!isOrderable(cart)) throw notOrderable(cart);
  if (cart.origin === 'Quote') {
    throw invalidOperation(`The cart '${cart.id}' is the quotation cart of a staged quote; order its quote instead (POST /orders/quotes).`);
  }
  assertShippingAddress(cart);
  assertShippingMatches(cart);
}

/** The order's content: the cart's, as it is (reference Order: the fields an order keeps of its cart). */
export function copiedFromCart(cart: Cart): OrderFields {
  const copy = structuredClone(cart);
  const fields: OrderFields = {
    origin: copy.origin ?? 'Customer',
    cart: { typeId: 'cart', id: copy.id },
    lineItems: copy.lineItems,
    customLineItems: copy.customLineItems,
    totalPrice: copy.totalPrice,
    priceRoundingMode: copy.priceRoundingMode,
    taxMode: copy.taxMode,
    taxRoundingMode: copy.taxRoundingMode,
    taxCalculationMode: copy.taxCalculationMode,
    inventoryMode: copy.inventoryMode,
    shippingMode: copy.shippingMode ?? 'Single',
    // A cart stored before Multiple shipping existed has no `shipping`.
    shipping: orderShipping((copy as Partial<Cart>).shipping ?? []),
    itemShippingAddresses: copy.itemShippingAddresses,
    // The cart's discounted prices (line items' discountedPricePerQuantity, shipping's discountedPrice) come along with them.
    discountCodes: copy.discountCodes,
    directDiscounts: copy.directDiscounts,
    refusedGifts: copy.refusedGifts ?? [],
    orderState: 'Open',
    syncInfo: [],
    returnInfo: [],
  };
  const optional = {
    customerId: copy.customerId,
    customerEmail: copy.customerEmail,
    anonymousId: copy.anonymousId,
    businessUnit: copy.businessUnit,
    store: copy.store,
    billingAddress: copy.billingAddress,
    shippingAddress: copy.shippingAddress,
    shippingRateInput: copy.shippingRateInput,
    // The priced cart's taxes and shipping (carts/taxes.ts, carts/shipping.ts), with the shipping
    // method's custom fields (reference Cart/Order.shippingCustomFields).
    taxedPrice: copy.taxedPrice,
    taxedShippingPrice: copy.taxedShippingPrice,
    shippingInfo: orderShippingInfo(copy.shippingInfo),
    shippingCustomFields: copy.shippingCustomFields,
    customerGroup: copy.customerGroup,
    country: copy.country,
    locale: copy.locale,
    purchaseOrderNumber: copy.purchaseOrderNumber,
    custom: copy.custom,
    discountOnTotalPrice: copy.discountOnTotalPrice,
    paymentInfo: copy.paymentInfo,
  };
  for (const [field, value] of Object.entries(optional)) if (value !== undefined) Object.assign(fields, { [field]: value });
  return fields;
}

/** Who orders: `buyer` on `/me/orders`; `authorize` checks an associate's permission for the cart (as-associate). */
export interface OrderingParty {
  buyer?: Buyer;
  authorize?(cart: Cart): Promise<void>;
}

/**
 * POST /orders (OrderFromCartDraft) and, with a `buyer`, /me/orders (MyOrderFromCartDraft: the
 * buyer's own cart, no other field). The order and its cart becoming `Ordered` commit together.
 */
export async function createOrderFromCart(body: unknown, ctx: RequestContext, documents: DocumentStore, party: OrderingParty = {}): Promise<Order> {
  const { buyer } = party;
  const draft = asDraft(body, buyer === undefined ? 'OrderFromCartDraft' : 'MyOrderFromCartDraft');
  const locator = cartLocator(draft);
  const version = sourceVersion(draft.version, 'version');
  const cart = await ctx.load<Cart>('cart', locator);
  if (cart === undefined || (buyer !== undefined && !owns(cart, buyer))) throw referencedResourceNotFound('cart', locator);
  await party.authorize?.(cart);
  assertOrderable(cart, version);
  // §1.4: an order of a business unit's cart validates the buyer's role in it.
  await requireBusinessUnitBuyer({ get: (_projectKey, typeId, at) => ctx.load(typeId, at) }, ctx.projectKey, cart.businessUnit, ctx.auth);
  const fields: OrderFields = withItemStates(copiedFromCart(cart), await initialLineItemState(documents, ctx.projectKey));
  if (buyer === undefined) {
    Object.assign(fields, await orderDraftFields(draft, ctx));
    const purchaseOrderNumber = optionalString(draft.purchaseOrderNumber, 'purchaseOrderNumber');
    if (purchaseOrderNumber !== undefined) fields.purchaseOrderNumber = purchaseOrderNumber;
    const custom = await inheritedCustom(draft.custom, cart.custom, ORDER_CUSTOM_FIELDS_TYPE_ID, ctx);
    if (custom !== undefined) fields.custom = custom;
  }
  return writeTogether(documents, async (store) => {
    await assertOrderNumberFree(store.db, ctx.projectKey, fields.orderNumber);
    // Codes' applications are counted by their orders: checked with the codes locked, before the order is written.
    await assertCodesApplicable(store.db, ctx.projectKey, cart);
    await store.update<Cart>(ctx.write, 'cart', { id: cart.id }, version, (current) => {
      if (!isOrderable(current)) throw notOrderable(current);
      return { doc: { ...current, cartState: 'Ordered' } };
    });
    // InventoryMode TrackOnly / ReserveOnOrder: checked and deducted with the order (carts/order-inventory.ts).
    await deductInventory(store, ctx.write, cart);
    return store.create<Order>(ctx.write, 'order', fields, (doc) => [orderCreated(doc)]);
  });
}
