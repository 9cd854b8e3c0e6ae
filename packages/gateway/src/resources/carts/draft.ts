import { requireBusinessUnitBuyer } from '../business-units/business-unit-buyer.js';
import { invalidInput, type KeyReference } from '@herald/model';
import type { ServerFields } from '@herald/store';
import { customFromDraft } from '../shared/custom-fields.js';
import type { RequestContext } from '../shared/context.js';
import { asDraft, LANGUAGE_TAG, optionalKey, optionalString, stringArray, type Draft } from '../shared/validation.js';
import { countryCode, optionalAddress } from '../shared/address.js';
import { itemShippingAddresses } from './item-shipping.js';
import type { Buyer } from '../shared/buyer.js';
import {
  CART_CUSTOM_FIELDS_TYPE_ID,
  CART_ORIGINS,
  INVENTORY_MODES,
  SHIPPING_MODES,
  TAX_CALCULATION_MODES,
  TAX_MODES,
  TAX_ROUNDING_MODES,
  type Cart,
  type ShippingRateInput,
} from './cart.js';
import { assertUniqueItemKeys, customLineItemFromDraft, emptyTotal, itemList, recalculate } from './line-items.js';
import { lineItemFromDraft } from './line-item-draft.js';
import { draftReads, withCatalogueReadAhead } from './catalogue.js';
import { addDiscountCode } from './discount-codes.js';
import { settleCart } from './settle.js';
import { setShippingMethod } from './shipping.js';
import { shippingsFromDraft } from './multi-shipping.js';
import { assertExternalTaxMode } from './tax-actions.js';
import { externalTaxRate } from './taxes.js';
import { optionalCustomerGroupReference } from '../customer-groups/reference.js';
import { pricesWithAssignments } from './buyer-groups.js';
import type { Customer } from '../customers/customer.js';
import { currencyCode } from '../shared/money.js';
import { cartDeleteDays } from './retention.js';
import { assertBuyerCartDraft } from './buyer-limits.js';
import { identifierLocator, keyReference, loadReferenced } from '../shared/references.js';

export type CartFields = Omit<Cart, ServerFields>;

/** What the route variant imposes on a new cart: `/me` its buyer, `/in-store/key=…` its store. */
export interface CartOrigin {
  buyer?: Buyer;
  storeKey?: string;
}

export function oneOf<T extends string>(values: readonly T[], value: unknown, field: string, fallback: T): T {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) {
    throw invalidInput(`'${field}' must be one of ${values.join(', ')}.`, { field, invalidValue: value });
  }
  return value as T;
}

export function shippingRateInput(value: unknown, field: string): ShippingRateInput | undefined {
  if (value === undefined || value === null) return undefined;
  const input = asDraft(value, field);
  if (input.type === 'Classification' && typeof input.key === 'string' && input.key.length > 0) {
    return { type: 'Classification', key: input.key };
  }
  if (input.type === 'Score' && typeof input.score === 'number' && Number.isInteger(input.score) && input.score >= 0) {
    return { type: 'Score', score: input.score };
  }
  throw invalidInput(`'${field}' must be {"type": "Classification", "key": …} or {"type": "Score", "score": …}.`, { field });
}

/**
 * CartDraft `priceRoundingMode`/`taxRoundingMode`: "If not set, the default value configured in
 * the Project's CartsConfiguration is used" (HalfEven where the project has none).
 */
function projectRoundingMode(project: RequestContext['project'], field: 'priceRoundingMode' | 'taxRoundingMode'): (typeof TAX_ROUNDING_MODES)[number] {
  const configured = (project.carts as Record<string, unknown> | undefined)?.[field];
  return TAX_ROUNDING_MODES.find((mode) => mode === configured) ?? 'HalfEven';
}

/** `customerId` set by an API client: the customer must exist (§1.4: carts belong to customers). */
export async function existingCustomerId(value: unknown, field: string, ctx: Pick<RequestContext, 'load'>): Promise<string> {
  if (typeof value !== 'string' || value === '') throw invalidInput(`'${field}' must be a customer id.`, { field });
  await loadReferenced(ctx.load, 'customer', { id: value });
  return value;
}

async function storeOf(draft: Draft, origin: CartOrigin, ctx: RequestContext): Promise<KeyReference<'store'> | undefined> {
  if (origin.storeKey === undefined) {
    return draft.store === undefined || draft.store === null ? undefined : keyReference(ctx.load, 'store', draft.store, 'store');
  }
  // In-store routes put the cart into the store of the path; a conflicting draft is a mistake.
  const store = await keyReference(ctx.load, 'store', { key: origin.storeKey }, 'store');
  if (draft.store !== undefined && draft.store !== null) {
    const drafted = identifierLocator(draft.store, 'store', 'store');
    if (!('key' in drafted) || drafted.key !== origin.storeKey) {
      throw invalidInput(`'store' must be omitted or be the store '${origin.storeKey}' of the path.`, { field: 'store' });
    }
  }
  return store;
}

/** Cart.locale: a language tag (the reference's Locale). */
export function optionalLocale(value: unknown, field = 'locale'): string | undefined {
  const locale = optionalString(value, field, 64);
  if (locale !== undefined && !LANGUAGE_TAG.test(locale)) {
    throw invalidInput(`'${field}' must be an IETF language tag such as "en" or "de-DE".`, { field, invalidValue: locale });
  }
  return locale;
}

/** The optional text fields of a CartDraft that Herald keeps as given. */
function optionalTexts(draft: Draft): Pick<CartFields, 'customerEmail' | 'locale' | 'purchaseOrderNumber'> {
  const texts: Pick<CartFields, 'customerEmail' | 'locale' | 'purchaseOrderNumber'> = {};
  const customerEmail = optionalString(draft.customerEmail, 'customerEmail', 256);
  if (customerEmail !== undefined) texts.customerEmail = customerEmail;
  const locale = optionalLocale(draft.locale);
  if (locale !== undefined) texts.locale = locale;
  const purchaseOrderNumber = optionalString(draft.purchaseOrderNumber, 'purchaseOrderNumber', 256);
  if (purchaseOrderNumber !== undefined) texts.purchaseOrderNumber = purchaseOrderNumber;
  return texts;
}

async function ownerOf(draft: Draft, origin: CartOrigin, ctx: RequestContext): Promise<Pick<Cart, 'customerId' | 'anonymousId'>> {
  // `/me` carts belong to the token's buyer; the draft cannot choose someone else.
  if (origin.buyer !== undefined) return { ...origin.buyer };
  const owner: Pick<Cart, 'customerId' | 'anonymousId'> = {};
  if (draft.customerId !== undefined && draft.customerId !== null) {
    owner.customerId = await existingCustomerId(draft.customerId, 'customerId', ctx);
  }
  const anonymousId = optionalString(draft.anonymousId, 'anonymousId', 256);
  if (anonymousId !== undefined) owner.anonymousId = anonymousId;
  return owner;
}

/** A CartDraft validated into the document fields (prices computed, references resolved). */
export async function cartFromDraft(body: unknown, ctx: RequestContext, origin: CartOrigin): Promise<CartFields> {
  const draft = asDraft(body, 'CartDraft');
  if (origin.buyer !== undefined) assertBuyerCartDraft(draft);
  const currency = currencyCode(draft.currency, 'currency');
  const cart: CartFields = {
    cartState: 'Active',
    origin: oneOf(CART_ORIGINS, draft.origin, 'origin', 'Customer'),
    ...(await ownerOf(draft, origin, ctx)),
    ...optionalTexts(draft),
    lineItems: [],
    customLineItems: [],
    totalPrice: emptyTotal(currency),
    itemShippingAddresses: itemShippingAddresses(draft.itemShippingAddresses, 'itemShippingAddresses'),
    discountCodes: [],
    directDiscounts: [],
    inventoryMode: oneOf(INVENTORY_MODES, draft.inventoryMode, 'inventoryMode', 'None'),
    taxMode: oneOf(TAX_MODES, draft.taxMode, 'taxMode', 'Platform'),
    priceRoundingMode: oneOf(TAX_ROUNDING_MODES, draft.priceRoundingMode, 'priceRoundingMode', projectRoundingMode(ctx.project, 'priceRoundingMode')),
    taxRoundingMode: oneOf(TAX_ROUNDING_MODES, draft.taxRoundingMode, 'taxRoundingMode', projectRoundingMode(ctx.project, 'taxRoundingMode')),
    taxCalculationMode: oneOf(TAX_CALCULATION_MODES, draft.taxCalculationMode, 'taxCalculationMode', 'LineItemLevel'),
    shippingMode: oneOf(SHIPPING_MODES, draft.shippingMode, 'shippingMode', 'Single'),
    shipping: [],
    refusedGifts: [],
    deleteDaysAfterLastModification: cartDeleteDays(draft.deleteDaysAfterLastModification, 'deleteDaysAfterLastModification', ctx.project),
  };
  const key = optionalKey(draft.key);
  if (key !== undefined) cart.key = key;
  const store = await storeOf(draft, origin, ctx);
  if (store !== undefined) cart.store = store;
  if (draft.businessUnit !== undefined && draft.businessUnit !== null) {
    cart.businessUnit = await keyReference(ctx.load, 'business-unit', draft.businessUnit, 'businessUnit');
    await requireBusinessUnitBuyer({ get: (_projectKey, typeId, locator) => ctx.load(typeId, locator) }, ctx.projectKey, cart.businessUnit, ctx.auth);
  }
  if (draft.country !== undefined && draft.country !== null) cart.country = countryCode(draft.country, 'country');
  const shippingAddress = optionalAddress(draft.shippingAddress, 'shippingAddress');
  if (shippingAddress !== undefined) cart.shippingAddress = shippingAddress;
  const billingAddress = optionalAddress(draft.billingAddress, 'billingAddress');
  if (billingAddress !== undefined) cart.billingAddress = billingAddress;
  const rateInput = shippingRateInput(draft.shippingRateInput, 'shippingRateInput');
  if (rateInput !== undefined) cart.shippingRateInput = rateInput;
  const custom = await customFromDraft(draft.custom, CART_CUSTOM_FIELDS_TYPE_ID, ctx);
  if (custom !== undefined) cart.custom = custom;
  await pricedContent(cart as Cart, draft, ctx);
  return cart;
}

/** LineItemDraft.sku's bound (line-item-draft.ts): a longer one is refused there, not looked up here. */
const MAX_SKU_LENGTH = 256;

/** The SKUs line item drafts name without a productId (checked one by one later, as each item is built). */
function skusNamed(items: readonly unknown[]): string[] {
  return items.flatMap((item) => {
    const draft = item as { sku?: unknown; productId?: unknown } | null;
    return typeof draft === 'object' && draft !== null && typeof draft.sku === 'string' && draft.sku.length <= MAX_SKU_LENGTH && draft.productId === undefined
      ? [draft.sku]
      : [];
  });
}

/**
 * The items, priced for the cart (its currency, country, customer group), and the shipping
 * method; then the cart settled (settle.ts). Runs last: prices depend on the cart's other fields.
 */
async function pricedContent(cart: Cart, draft: Draft, ctx: RequestContext): Promise<void> {
  const lineItems = itemList(draft.lineItems, 'lineItems');
  const reads = await withCatalogueReadAhead(draftReads(ctx), skusNamed(lineItems));
  await assignCustomerGroup(cart, draft.customerGroup, ctx);
  for (const [index, item] of lineItems.entries()) {
    cart.lineItems.push(await lineItemFromDraft(item, `lineItems[${index}]`, cart, reads, ctx));
  }
  for (const [index, item] of itemList(draft.customLineItems, 'customLineItems').entries()) {
    cart.customLineItems.push(await customLineItemFromDraft(item, `customLineItems[${index}]`, cart, ctx));
  }
  assertUniqueItemKeys(cart);
  recalculate(cart);
  // CartDraft.discountCodes: "String that identifies DiscountCodes", each added as by addDiscountCode.
  for (const [index, code] of (draft.discountCodes === undefined ? [] : stringArray(draft.discountCodes, 'discountCodes')).entries()) {
    await addDiscountCode(cart, code, `discountCodes[${index}]`, reads, new Date());
  }
  if (draft.shippingMethod !== undefined && draft.shippingMethod !== null) await setShippingMethod(cart, draft.shippingMethod, reads);
  if (draft.externalTaxRateForShippingMethod !== undefined && draft.externalTaxRateForShippingMethod !== null && cart.shippingInfo !== undefined) {
    assertExternalTaxMode(cart, 'externalTaxRateForShippingMethod');
    cart.shippingInfo.taxRate = externalTaxRate(draft.externalTaxRateForShippingMethod, 'externalTaxRateForShippingMethod');
  }
  await shippingsFromDraft(cart, draft, ctx, reads);
  await settleCart(cart, reads, { reprice: false });
}

/**
 * CartDraft.customerGroup, else the customer's: "If the Customer referenced in customerId belongs
 * to a Customer Group then customerGroup is set automatically" (CartDraft.raml); none when the
 * buyer prices with customer group assignments (buyer-groups.ts).
 */
export async function assignCustomerGroup(cart: Cart, value: unknown, ctx: Pick<RequestContext, 'load'>): Promise<void> {
  const named = await optionalCustomerGroupReference(ctx.load, value, 'customerGroup');
  if (named !== undefined) {
    cart.customerGroup = named;
    return;
  }
  if (await pricesWithAssignments(ctx.load, cart)) {
    delete cart.customerGroup;
    return;
  }
  const customer = cart.customerId === undefined ? undefined : await ctx.load<Customer>('customer', { id: cart.customerId });
  if (customer?.customerGroup !== undefined) cart.customerGroup = { ...customer.customerGroup };
  else delete cart.customerGroup;
}
