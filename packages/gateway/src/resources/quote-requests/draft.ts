import { requireBusinessUnitBuyer } from '../business-units/business-unit-buyer.js';
import { concurrentModification, invalidInput, invalidOperation, requiredField } from '@herald/model';
import type { Locator, ServerFields } from '@herald/store';
import type { Cart } from '../carts/cart.js';
import { centPrecision, type CentPrecisionMoney } from '../shared/money.js';
import { identifierLocator, loadReferenced, referencedResourceNotFound } from '../shared/references.js';
import { customFromDraft } from '../shared/custom-fields.js';
import type { RequestContext } from '../shared/context.js';
import type { State } from '../states/state.js';
import { asDraft, optionalKey, optionalString, type Draft } from '../shared/validation.js';
import type { Project } from '@herald/store';
import { TAX_ROUNDING_MODES, type TaxRoundingMode } from '../carts/cart.js';
import { DEFAULT_PRICE_ROUNDING_MODE, type QuoteRequest, type TaxedPrice } from './quote-request.js';

export type QuoteRequestFields = Omit<QuoteRequest, ServerFields>;

/** Custom fields of quote requests are defined by Types for the resource type id `quote-request`. */
export const QUOTE_REQUEST_CUSTOM_FIELDS_TYPE_ID = 'quote-request';

/**
 * §2.3: "Not set until the shipping address is set". A cart the tax engine did not tax (taxes
 * Disabled, or an address added before the cart had a taxed price) gives net = gross = total.
 */
export function simpleTaxedPrice(totalPrice: CentPrecisionMoney): TaxedPrice {
  return {
    totalNet: { ...totalPrice },
    totalGross: { ...totalPrice },
    totalTax: centPrecision(totalPrice.currencyCode, 0),
    taxPortions: [],
  };
}

function cartLocator(draft: Draft): Locator {
  // The platform's MyQuoteRequestDraft names the cart by `cartId`; QuoteRequestDraft by `cart`.
  if (draft.cart === undefined && typeof draft.cartId === 'string') return { id: draft.cartId };
  if (draft.cart === undefined || draft.cart === null) throw requiredField('cart');
  return identifierLocator(draft.cart, 'cart', 'cart');
}

function cartVersion(value: unknown): number {
  if (value === undefined || value === null) throw requiredField('cartVersion');
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw invalidInput("'cartVersion' must be a positive integer.", { field: 'cartVersion', invalidValue: value });
  }
  return value;
}

/** §2.3 QuoteRequestDraft: the carts a quote can be asked for. */
function assertQuotable(cart: Cart, expectedVersion: number): asserts cart is Cart & { customerId: string } {
  if (cart.version !== expectedVersion) throw concurrentModification(cart.version, expectedVersion);
  if (cart.customerId === undefined) {
    throw invalidOperation(`The cart '${cart.id}' is anonymous (it has no customer); a quote request can only be created from a customer's cart.`);
  }
  if (cart.discountCodes.length > 0) {
    throw invalidOperation(
      `The cart '${cart.id}' has discount codes (${cart.discountCodes.map(({ discountCode }) => discountCode.id).join(', ')}); ` +
        'a quote request cannot be created from a cart with discount codes. Remove them first.',
    );
  }
}

/** A workflow State given on creation must be a State of quote requests (§2.3 `state`). */
export async function quoteRequestStateReference(load: RequestContext['load'], value: unknown, field: string): Promise<State> {
  const state = await loadReferenced<State>(load, 'state', identifierLocator(value, field, 'state'));
  if (state.type !== 'QuoteRequestState') {
    throw invalidInput(`The State '${state.key}' is a ${state.type}; quote requests use States of type QuoteRequestState.`, {
      field,
    });
  }
  return state;
}

function isRoundingMode(value: unknown): value is TaxRoundingMode {
  return typeof value === 'string' && (TAX_ROUNDING_MODES as readonly string[]).includes(value);
}

/**
 * The reference's required `priceRoundingMode`: the cart's when it has one, else the project's
 * (CartsConfiguration.priceRoundingMode), else the reference's default HalfEven.
 */
function priceRoundingModeOf(cart: Cart, project: Project): TaxRoundingMode {
  const ofCart: unknown = (cart as Cart & { priceRoundingMode?: unknown }).priceRoundingMode;
  if (isRoundingMode(ofCart)) return ofCart;
  const ofProject: unknown = (project.carts as Readonly<Record<string, unknown>> | undefined)?.priceRoundingMode;
  return isRoundingMode(ofProject) ? ofProject : DEFAULT_PRICE_ROUNDING_MODE;
}

/** The fields a quote request copies from its cart (§2.3). */
function copiedFromCart(cart: Cart & { customerId: string }, project: Project): QuoteRequestFields {
  const copy = structuredClone(cart);
  const fields: QuoteRequestFields = {
    quoteRequestState: 'Submitted',
    customer: { typeId: 'customer', id: copy.customerId },
    cart: { typeId: 'cart', id: copy.id },
    priceRoundingMode: priceRoundingModeOf(copy, project),
    lineItems: copy.lineItems,
    customLineItems: copy.customLineItems,
    totalPrice: copy.totalPrice,
    inventoryMode: copy.inventoryMode,
    taxMode: copy.taxMode,
    taxRoundingMode: copy.taxRoundingMode,
    taxCalculationMode: copy.taxCalculationMode,
    itemShippingAddresses: copy.itemShippingAddresses,
    directDiscounts: copy.directDiscounts,
  };
  if (copy.store !== undefined) fields.store = copy.store;
  if (copy.businessUnit !== undefined) fields.businessUnit = copy.businessUnit;
  if (copy.country !== undefined) fields.country = copy.country;
  if (copy.customerGroup !== undefined) fields.customerGroup = copy.customerGroup;
  // The shipping price is part of totalPrice and taxedPrice: the offer keeps what it was for (§2.3 shippingInfo).
  if (copy.shippingInfo !== undefined) fields.shippingInfo = copy.shippingInfo;
  if (copy.billingAddress !== undefined) fields.billingAddress = copy.billingAddress;
  if (copy.shippingRateInput !== undefined) fields.shippingRateInput = copy.shippingRateInput;
  if (copy.shippingAddress !== undefined) {
    fields.shippingAddress = copy.shippingAddress;
    fields.taxedPrice = copy.taxedPrice ?? simpleTaxedPrice(copy.totalPrice);
  }
  return fields;
}

/**
 * Validates a QuoteRequestDraft and builds the quote request from its cart. With `buyer` (the
 * `/me` route) the cart must be the buyer's own (another's answers as if it did not exist) and
 * the buyer cannot pick a workflow State.
 *
 * The cart is read before the quote request's own transaction: a cart changed in between yields
 * a quote of the version the client named, which is what it asked for.
 */
export async function quoteRequestFromDraft(body: unknown, ctx: RequestContext, buyer?: { customerId: string }): Promise<QuoteRequestFields> {
  const draft = asDraft(body, 'QuoteRequestDraft');
  const locator = cartLocator(draft);
  const version = cartVersion(draft.cartVersion);
  const cart = await ctx.load<Cart>('cart', locator);
  if (cart === undefined || (buyer !== undefined && cart.customerId !== buyer.customerId)) {
    throw referencedResourceNotFound('cart', locator);
  }
  assertQuotable(cart, version);
  await requireBusinessUnitBuyer({ get: (_projectKey, typeId, locator) => ctx.load(typeId, locator) }, ctx.projectKey, cart.businessUnit, ctx.auth);

  const fields = copiedFromCart(cart, ctx.project);
  const key = optionalKey(draft.key);
  if (key !== undefined) fields.key = key;
  const comment = optionalString(draft.comment, 'comment', 4096);
  if (comment !== undefined) fields.comment = comment;
  if (draft.state !== undefined && draft.state !== null) {
    if (buyer !== undefined) throw invalidInput("A buyer cannot set the workflow 'state' of a quote request.", { field: 'state' });
    const state = await quoteRequestStateReference(ctx.load, draft.state, 'state');
    fields.state = { typeId: 'state', id: state.id };
  }
  const custom = await customFromDraft(draft.custom, QUOTE_REQUEST_CUSTOM_FIELDS_TYPE_ID, ctx);
  if (custom !== undefined) fields.custom = custom;
  return fields;
}
