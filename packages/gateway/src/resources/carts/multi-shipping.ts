import { duplicateField, invalidInput, invalidOperation, requiredField, type CustomFields } from '@herald/model';
import type { Delivery } from '../orders/order.js';
import { deliveryFromDraft } from '../orders/deliveries.js';
import { asObject, asList } from '../orders/values.js';
import { address, type Address } from '../shared/address.js';
import type { RequestContext } from '../shared/context.js';
import { customFromDraft } from '../shared/custom-fields.js';
import type { ActionHandlers } from '../shared/update-actions.js';
import { optionalString, type Draft } from '../shared/validation.js';
import { taxCategoryReference } from '../shipping-methods/fields.js';
import type { Cart, ShippingRateInput } from './cart.js';
import { updateReads, type CatalogueReads } from './catalogue.js';
import { estimatedDelivery, shippingRateInCartCurrency } from './custom-shipping.js';
import { shippingRateInput } from './draft.js';
import { methodShippingInfo, ratePrice, type CartShippingInfo } from './shipping.js';
import { assertExternalTaxMode } from './tax-actions.js';
import { externalTaxRate } from './taxes.js';
import type { ItemTaxRate, TaxedItemPrice } from './taxed-price.js';

/*
 * The shippings of a cart with the `Multiple` ShippingMode (types/cart/Shipping.raml): each has a
 * key, its own address, rate input, ShippingInfo (a ShippingMethod's or a custom one), deliveries
 * and custom fields. CartAddShippingMethodAction, CartAddCustomShippingMethodAction and
 * CartRemoveShippingMethodAction change them, CartDraft.shipping / customShipping create them; line
 * items go to them by ItemShippingTarget.shippingMethodKey (item-shipping.ts) and are taxed per
 * shipping (multi-shipping-taxes.ts). The reference defines no messages for these actions.
 */

/** The reference's Shipping. */
export interface CartShipping {
  shippingKey: string;
  shippingInfo: CartShippingInfo;
  shippingAddress: Address;
  shippingRateInput?: ShippingRateInput;
  shippingCustomFields?: CustomFields;
}

/** The reference's MethodTaxRate: an item's TaxRate for one shipping. */
export interface MethodTaxRate {
  shippingMethodKey: string;
  taxRate?: ItemTaxRate;
}

/** The reference's MethodTaxedPrice: the taxed price of the units of an item that go with one shipping. */
export interface MethodTaxedPrice {
  shippingMethodKey: string;
  taxedPrice?: TaxedItemPrice;
}

const MAX_SHIPPINGS = 100;

function assertMultiple(cart: Cart, action: string): void {
  if (cart.shippingMode !== 'Multiple') throw invalidOperation(`'${action}' can only be used on a cart with the 'Multiple' shipping mode.`);
}

/** A `shippingKey` for a new shipping: required and "unique across the Cart" (CartAddShippingMethodAction). */
function newShippingKey(cart: Cart, value: unknown, field: string): string {
  const key = optionalString(value, field, 256);
  if (key === undefined || key === '') throw requiredField(field);
  if (cart.shipping.some((shipping) => shipping.shippingKey === key)) throw duplicateField(field, key);
  if (cart.shipping.length >= MAX_SHIPPINGS) throw invalidInput(`A cart has at most ${MAX_SHIPPINGS} shippings.`, { field });
  return key;
}

/** The shipping a `shippingKey` names. */
export function shippingNamed(cart: Cart, value: unknown, field = 'shippingKey'): CartShipping {
  const found = cart.shipping.find((shipping) => shipping.shippingKey === value);
  if (found === undefined) throw invalidInput(`The cart has no shipping with the key '${String(value)}'.`, { field, invalidValue: value });
  return found;
}

/**
 * The ShippingInfo an action with an optional `shippingKey` changes: "required and valid only for
 * Carts with `Multiple` ShippingMode. An InvalidOperation error is returned if `shippingKey` is
 * provided for Carts with `Single` ShippingMode, or omitted for Carts with `Multiple` ShippingMode"
 * (CartSetEstimatedDeliveryAction, CartSetShippingMethodTaxRateAction, …).
 */
export function shippingInfoNamed(cart: Cart, shippingKey: unknown, action: string): CartShippingInfo {
  const given = shippingKey !== undefined && shippingKey !== null;
  if (cart.shippingMode === 'Multiple') {
    if (!given) throw invalidOperation(`'shippingKey' is required by '${action}' on a cart with the 'Multiple' shipping mode.`);
    return shippingNamed(cart, shippingKey).shippingInfo;
  }
  if (given) throw invalidOperation(`'shippingKey' can only be given for a cart with the 'Multiple' shipping mode.`);
  if (cart.shippingInfo === undefined) throw invalidOperation(`'${action}' needs a shipping method on the cart.`);
  return cart.shippingInfo;
}

/** Where a shipping draft is read from: an update action (`shippingKey`) or a CartDraft entry (`key`). */
interface DraftPlace {
  prefix: string;
  keyField: 'shippingKey' | 'key';
  ctx: RequestContext;
  reads: CatalogueReads;
}

/** The fields both kinds of shipping drafts share (ShippingDraft, CustomShippingDraft, the add actions). */
interface CommonFields {
  shippingKey: string;
  shippingAddress: Address;
  shippingRateInput?: ShippingRateInput;
  taxRate?: ItemTaxRate;
  custom?: CustomFields;
}

function requiredAddress(value: unknown, field: string, fallback: Address | undefined): Address {
  if (value === undefined || value === null) {
    if (fallback !== undefined) return fallback;
    throw requiredField(field);
  }
  return address(value, field);
}

async function commonFields(cart: Cart, draft: Draft, place: DraftPlace, fallbackAddress?: Address): Promise<CommonFields> {
  const { prefix } = place;
  const fields: CommonFields = {
    shippingKey: newShippingKey(cart, draft[place.keyField], `${prefix}${place.keyField}`),
    shippingAddress: requiredAddress(draft.shippingAddress, `${prefix}shippingAddress`, fallbackAddress),
  };
  const rateInput = shippingRateInput(draft.shippingRateInput, `${prefix}shippingRateInput`);
  if (rateInput !== undefined) fields.shippingRateInput = rateInput;
  if (draft.externalTaxRate !== undefined && draft.externalTaxRate !== null) {
    assertExternalTaxMode(cart, `${prefix}externalTaxRate`);
    fields.taxRate = externalTaxRate(draft.externalTaxRate, `${prefix}externalTaxRate`);
  }
  const custom = await customFromDraft(draft.custom, 'shipping', place.ctx);
  if (custom !== undefined) fields.custom = custom;
  return fields;
}

const allDeliveries = (cart: Cart): Delivery[] => cart.shipping.flatMap((shipping) => shipping.shippingInfo.deliveries ?? []);

/** ShippingDraft.deliveries: "Deliveries to be shipped with the Shipping Method", of the cart's (custom) line items. */
async function deliveries(cart: Cart, value: unknown, place: DraftPlace): Promise<Delivery[]> {
  const field = `${place.prefix}deliveries`;
  const made: Delivery[] = [];
  const now = new Date().toISOString();
  for (const [index, entry] of asList(value, field).entries()) {
    const taken = [...allDeliveries(cart), ...made];
    const at = `${field}[${index}].`;
    const deliveryPlace = { field: at, keyField: 'key', taken, parcelsTaken: taken.flatMap((delivery) => delivery.parcels), now };
    made.push(await deliveryFromDraft(cart, asObject(entry, `${field}[${index}]`), deliveryPlace, { ctx: place.ctx }));
  }
  return made;
}

/** The Shipping made of the shared fields and a priced ShippingInfo. */
async function addShipping(cart: Cart, draft: Draft, common: CommonFields, info: CartShippingInfo, place: DraftPlace): Promise<void> {
  const delivery = estimatedDelivery(draft.estimatedDelivery, `${place.prefix}estimatedDelivery`);
  const shippingInfo: CartShippingInfo = {
    ...info,
    ...(common.taxRate === undefined ? {} : { taxRate: common.taxRate }),
    ...(delivery === undefined ? {} : { estimatedDelivery: delivery }),
    deliveries: await deliveries(cart, draft.deliveries, place),
  };
  const shipping: CartShipping = { shippingKey: common.shippingKey, shippingInfo, shippingAddress: common.shippingAddress };
  if (common.shippingRateInput !== undefined) shipping.shippingRateInput = common.shippingRateInput;
  if (common.custom !== undefined) shipping.shippingCustomFields = common.custom;
  cart.shipping.push(shipping);
}

/** CartAddShippingMethodAction / ShippingDraft: a ShippingMethod priced for the shipping's address (shipping.ts). */
async function addMethodShipping(cart: Cart, draft: Draft, place: DraftPlace): Promise<void> {
  const common = await commonFields(cart, draft, place);
  const field = `${place.prefix}shippingMethod`;
  if (draft.shippingMethod === undefined || draft.shippingMethod === null) throw requiredField(field);
  const destination = { address: common.shippingAddress, shippingRateInput: common.shippingRateInput };
  await addShipping(cart, draft, common, await methodShippingInfo(draft.shippingMethod, field, cart, destination, place.reads), place);
}

/** CartAddCustomShippingMethodAction / CustomShippingDraft: a name and a ShippingRateDraft, taxed by `taxCategory` or `externalTaxRate`. */
async function addCustomShipping(cart: Cart, draft: Draft, place: DraftPlace, fallbackAddress?: Address): Promise<void> {
  const { prefix } = place;
  const common = await commonFields(cart, draft, place, fallbackAddress);
  const shippingMethodName = optionalString(draft.shippingMethodName, `${prefix}shippingMethodName`, 4096);
  if (shippingMethodName === undefined) throw requiredField(`${prefix}shippingMethodName`);
  if (draft.shippingRate === undefined || draft.shippingRate === null) throw requiredField(`${prefix}shippingRate`);
  const shippingRate = shippingRateInCartCurrency(cart, draft.shippingRate, place.ctx.project);
  const present = draft.taxCategory !== undefined && draft.taxCategory !== null;
  const taxCategory = present ? await taxCategoryReference(place.ctx.load, draft.taxCategory, `${prefix}taxCategory`) : undefined;
  const info: CartShippingInfo = {
    shippingMethodName,
    price: ratePrice(shippingRate, cart, common.shippingRateInput),
    shippingRate,
    shippingMethodState: 'MatchesCart',
    ...(taxCategory === undefined ? {} : { taxCategory }),
  };
  await addShipping(cart, draft, common, info, place);
}

/** Targets and item rates that named a removed shipping go with it: their units are no longer distributed to a shipping. */
function forgetShippingMethodKey(cart: Cart, key: string): void {
  for (const item of [...cart.lineItems, ...cart.customLineItems]) {
    item.perMethodTaxRate = item.perMethodTaxRate.filter((entry) => entry.shippingMethodKey !== key);
    for (const target of item.shippingDetails?.targets ?? []) if (target.shippingMethodKey === key) delete target.shippingMethodKey;
  }
}

/** API Clients only: MyCartUpdateAction has none of them. Prices and taxes follow in the settle step. */
export const multiShippingActions: ActionHandlers<Cart> = {
  async addShippingMethod(cart, action, { ctx, reader }) {
    assertMultiple(cart, 'addShippingMethod');
    await addMethodShipping(cart, action, { prefix: '', keyField: 'shippingKey', ctx, reads: updateReads(ctx, reader) });
  },
  async addCustomShippingMethod(cart, action, { ctx, reader }) {
    assertMultiple(cart, 'addCustomShippingMethod');
    await addCustomShipping(cart, action, { prefix: '', keyField: 'shippingKey', ctx, reads: updateReads(ctx, reader) });
  },
  removeShippingMethod(cart, action) {
    assertMultiple(cart, 'removeShippingMethod');
    if (typeof action.shippingKey !== 'string') throw requiredField('shippingKey');
    const removed = shippingNamed(cart, action.shippingKey);
    cart.shipping = cart.shipping.filter((shipping) => shipping !== removed);
    forgetShippingMethodKey(cart, removed.shippingKey);
  },
};

/**
 * CartDraft.shipping (ShippingDraft[]) and customShipping (CustomShippingDraft[]): only for a
 * `Multiple` cart; a CustomShippingDraft without `shippingAddress` ships to the cart's.
 */
export async function shippingsFromDraft(cart: Cart, draft: Draft, ctx: RequestContext, reads: CatalogueReads): Promise<void> {
  const methods = asList(draft.shipping, 'shipping');
  const customs = asList(draft.customShipping, 'customShipping');
  if (methods.length + customs.length === 0) return;
  if (cart.shippingMode !== 'Multiple') {
    const field = methods.length > 0 ? 'shipping' : 'customShipping';
    throw invalidInput(`'${field}' can only be given for a cart with the 'Multiple' shipping mode.`, { field });
  }
  for (const [index, entry] of methods.entries()) {
    await addMethodShipping(cart, asObject(entry, `shipping[${index}]`), { prefix: `shipping[${index}].`, keyField: 'key', ctx, reads });
  }
  for (const [index, entry] of customs.entries()) {
    const place: DraftPlace = { prefix: `customShipping[${index}].`, keyField: 'key', ctx, reads };
    await addCustomShipping(cart, asObject(entry, `customShipping[${index}]`), place, cart.shippingAddress);
  }
}
