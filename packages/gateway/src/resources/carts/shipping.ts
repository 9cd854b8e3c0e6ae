import { ApiError, invalidOperation, type Reference } from '@herald/model';
import type { Address } from '../shared/address.js';
import type { CentPrecisionMoney } from '../shared/money.js';
import { centPrecision } from '../shared/money.js';
import { identifierLocator, loadReferenced } from '../shared/references.js';
import { cartPredicateSubject, predicateAdmits } from '../shipping-methods/cart-predicate.js';
import { matchingTier } from '../shipping-methods/matching.js';
import { SHIPPING_METHOD_TYPE_ID, type ShippingMethod, type ShippingRate } from '../shipping-methods/shipping-method.js';
import { ZONE_TYPE_ID, type Zone } from '../zones/zone.js';
import { zoneForAddress } from '../zones/zone-for-address.js';
import type { DiscountedLineItemPrice } from '../discounts/cart-pricing.js';
import type { Cart, ShippingRateInput } from './cart.js';
import type { CatalogueReads } from './catalogue.js';
import type { ItemTaxRate, TaxedItemPrice } from './taxed-price.js';
import type { Delivery } from '../orders/order.js';

/*
 * The shipping method of a `Single` cart (CartSetShippingMethodAction, CartDraft.shippingMethod)
 * and of each Shipping of a `Multiple` one (multi-shipping.ts):
 * the method's ShippingRate in the cart's currency for the Zone of the shipping address, its
 * tier for the cart and `freeAbove` (types/shipping-method/ShippingRate.raml), kept up to date as
 * the cart changes. A method's cart predicate (ShippingMethod.predicate) must hold for the cart too.
 */

/** The reference's EstimatedDelivery: the window a shipment is expected to arrive in. */
export interface EstimatedDelivery {
  from?: string;
  until?: string;
}

/**
 * The reference's ShippingInfo (types/cart/ShippingInfo.raml) of a cart; without `shippingMethod` a
 * custom one (custom-shipping.ts). `deliveries` only in a Shipping of a `Multiple` cart (multi-shipping.ts).
 */
export interface CartShippingInfo {
  shippingMethodName: string;
  price: CentPrecisionMoney;
  shippingRate: ShippingRate;
  /** The price after cart discounts on shipping (ShippingInfo.discountedPrice); taxes and the total use it. */
  discountedPrice?: DiscountedLineItemPrice;
  taxedPrice?: TaxedItemPrice;
  taxRate?: ItemTaxRate;
  taxCategory?: Reference<'tax-category'>;
  shippingMethod?: Reference<'shipping-method'>;
  shippingMethodState: 'MatchesCart' | 'DoesNotMatchCart';
  estimatedDelivery?: EstimatedDelivery;
  deliveries?: Delivery[];
}

async function zoneOfAddress(reads: CatalogueReads, country: string, state: string | undefined): Promise<Zone | undefined> {
  const found = await reads.db.query<{ doc: Zone }>(`SELECT doc FROM resources WHERE project_key = $1 AND type_id = $2 AND doc @? $3::jsonpath`, [
    reads.projectKey,
    ZONE_TYPE_ID,
    `$.locations[*] ? (@.country == ${JSON.stringify(country)})`,
  ]);
  return zoneForAddress(
    found.rows.map((row) => row.doc),
    { country, ...(state === undefined ? {} : { state }) },
  );
}

/** The sum the rate's CartValue tiers and `freeAbove` compare with: the (custom) line items, without shipping. */
function itemsTotal(cart: Cart): number {
  return [...cart.lineItems, ...cart.customLineItems].reduce((total, item) => total + item.totalPrice.centAmount, 0);
}

/**
 * The price of a rate for the cart: free above `freeAbove`, else the matching tier's fixed price, else the rate's.
 * A `Multiple` cart's shipping selects its tier by its own `shippingRateInput` (Shipping.raml).
 */
export function ratePrice(rate: ShippingRate, cart: Cart, shippingRateInput = cart.shippingRateInput): CentPrecisionMoney {
  const currency = cart.totalPrice.currencyCode;
  const total = itemsTotal(cart);
  if (rate.freeAbove !== undefined && total >= rate.freeAbove.centAmount) return centPrecision(currency, 0);
  const tier = matchingTier(rate.tiers, { currency, totalCentAmount: total, shippingRateInput });
  // A CartScore tier with a price function is not evaluated by Herald: the rate's own price applies.
  return tier?.price ?? rate.price;
}

function doesNotMatch(method: ShippingMethod, reason: string): ApiError {
  return new ApiError(400, { code: 'ShippingMethodDoesNotMatchCart', message: `The shipping method '${method.id}' does not match the cart: ${reason}.` });
}

/**
 * A method's cart predicate against the cart as it is: ShippingMethodDoesNotMatchCart, whose
 * message the reference gives as "The predicate does not match the cart." (error type), also when
 * choosing a method (the actions' own text says InvalidOperation; the error type is the specific one).
 */
function predicateMismatch(method: ShippingMethod, cart: Cart): ApiError | undefined {
  // Most methods have no predicate: the cart's predicate subject is built only for those that do.
  if (method.predicate === undefined || predicateAdmits(method.predicate, cartPredicateSubject(cart))) return undefined;
  return new ApiError(400, { code: 'ShippingMethodDoesNotMatchCart', message: `The predicate does not match the cart (shipping method '${method.id}').` });
}

/** Where a shipping goes and how its tier is chosen: the cart's own (`Single`) or one Shipping's (`Multiple`). */
export interface ShippingDestination {
  address: Address | undefined;
  shippingRateInput: ShippingRateInput | undefined;
}

const singleDestination = (cart: Cart): ShippingDestination => ({ address: cart.shippingAddress, shippingRateInput: cart.shippingRateInput });

/**
 * The rate a method has for the address's zone in the cart's currency, or the reason it does not
 * match: no address, its predicate fails, or no rate for that zone and currency.
 */
async function rateForAddress(reads: CatalogueReads, method: ShippingMethod, cart: Cart, address: Address | undefined): Promise<ShippingRate | ApiError> {
  if (address === undefined) return doesNotMatch(method, 'the cart has no shipping address');
  const mismatch = predicateMismatch(method, cart);
  if (mismatch !== undefined) return mismatch;
  const zone = await zoneOfAddress(reads, address.country, address.state);
  const zoneRate = zone === undefined ? undefined : method.zoneRates.find((candidate) => candidate.zone.id === zone.id);
  const rate = zoneRate?.shippingRates.find((candidate) => candidate.price.currencyCode === cart.totalPrice.currencyCode);
  return rate ?? doesNotMatch(method, `it has no rate in ${cart.totalPrice.currencyCode} for the zone of ${address.country}`);
}

/**
 * The InvalidOperation cases every way of choosing a method shares (CartSetShippingMethodAction,
 * CartAddShippingMethodAction): active, the cart's store. Its predicate is checked with its rate (rateForAddress).
 */
function assertUsable(method: ShippingMethod, cart: Cart): void {
  if (!method.active) throw invalidOperation(`The shipping method '${method.id}' is not active.`);
  if (method.stores.length > 0 && !method.stores.some((store) => store.key === cart.store?.key)) {
    throw invalidOperation(`The shipping method '${method.id}' is not available in the cart's store.`);
  }
}

/** CartSetShippingMethodAction: "the Cart must have the `Single` ShippingMode and a `shippingAddress`". */
function assertSingleWithAddress(cart: Cart): void {
  if (cart.shippingMode !== 'Single') throw invalidOperation("A shipping method can only be set on a cart with the 'Single' shipping mode.");
  if (cart.shippingAddress === undefined) throw invalidOperation('The cart needs a shipping address before a shipping method can be set.');
}

/** The ShippingInfo of the method an identifier names, priced for the destination (a zone rate of its address). */
export async function methodShippingInfo(
  identifier: unknown,
  field: string,
  cart: Cart,
  destination: ShippingDestination,
  reads: CatalogueReads,
): Promise<CartShippingInfo> {
  const method = await loadReferenced<ShippingMethod>(reads.load, SHIPPING_METHOD_TYPE_ID, identifierLocator(identifier, field, SHIPPING_METHOD_TYPE_ID));
  assertUsable(method, cart);
  const rate = await rateForAddress(reads, method, cart, destination.address);
  if (rate instanceof ApiError) throw rate;
  return {
    shippingMethodName: method.name,
    price: ratePrice(rate, cart, destination.shippingRateInput),
    shippingRate: structuredClone(rate),
    taxCategory: { ...method.taxCategory },
    shippingMethod: { typeId: SHIPPING_METHOD_TYPE_ID, id: method.id },
    shippingMethodState: 'MatchesCart',
  };
}

/** Sets (or with no identifier removes) the cart's shipping method; taxes follow in the settle step. */
export async function setShippingMethod(cart: Cart, identifier: unknown, reads: CatalogueReads): Promise<void> {
  if (identifier === undefined || identifier === null) {
    delete cart.shippingInfo;
    return;
  }
  assertSingleWithAddress(cart);
  cart.shippingInfo = await methodShippingInfo(identifier, 'shippingMethod', cart, singleDestination(cart), reads);
}

/**
 * One ShippingInfo after a change of the cart: the method's rate for the destination as it is now.
 * A method that no longer matches (another zone, its predicate fails, deleted, deactivated) keeps its last price and is
 * marked `DoesNotMatchCart` (ShippingMethodState), which an order refuses.
 */
async function refreshInfo(info: CartShippingInfo, cart: Cart, destination: ShippingDestination, reads: CatalogueReads): Promise<void> {
  if (info.shippingMethod === undefined) {
    // A custom shipping method's own rate: its tiers and `freeAbove` follow the cart too.
    info.price = ratePrice(info.shippingRate, cart, destination.shippingRateInput);
    return;
  }
  const method = await reads.load<ShippingMethod>(SHIPPING_METHOD_TYPE_ID, { id: info.shippingMethod.id });
  const rate = method === undefined || !method.active ? undefined : await rateForAddress(reads, method, cart, destination.address);
  if (rate === undefined || rate instanceof ApiError) {
    info.shippingMethodState = 'DoesNotMatchCart';
    return;
  }
  info.shippingRate = structuredClone(rate);
  info.price = ratePrice(rate, cart, destination.shippingRateInput);
  info.shippingMethodState = 'MatchesCart';
}

/** After a change of the cart: the `Single` shipping info and every Shipping of a `Multiple` cart priced again. */
export async function refreshShipping(cart: Cart, reads: CatalogueReads): Promise<void> {
  if (cart.shippingInfo !== undefined) await refreshInfo(cart.shippingInfo, cart, singleDestination(cart), reads);
  for (const shipping of cart.shipping) {
    const destination = { address: shipping.shippingAddress, shippingRateInput: shipping.shippingRateInput };
    await refreshInfo(shipping.shippingInfo, cart, destination, reads);
  }
}

/** Create Order: "ShippingMethodDoesNotMatchCart … when the Cart contains a ShippingMethod that is not allowed". */
export function assertShippingMatches(cart: Cart): void {
  const infos = [cart.shippingInfo, ...cart.shipping.map((shipping) => shipping.shippingInfo)];
  if (infos.some((info) => info?.shippingMethodState === 'DoesNotMatchCart')) {
    throw new ApiError(400, {
      code: 'ShippingMethodDoesNotMatchCart',
      message: `The shipping method of the cart '${cart.id}' does not match the cart any more.`,
    });
  }
}
