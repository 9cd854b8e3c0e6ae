import { invalidOperation, type MessagePayload } from '@herald/model';
import type { DocumentStore, Locator, ServerFields } from '@herald/store';
import { cartDeleteDays } from '../carts/retention.js';
import type { Cart } from '../carts/cart.js';
import { cartTaxedPrice } from '../carts/taxed-price.js';
import type { QuoteRequest } from '../quote-requests/quote-request.js';
import type { RequestContext } from '../shared/context.js';
import { identifierLocator, loadReferenced } from '../shared/references.js';
import { asDraft, optionalKey, type Draft } from '../shared/validation.js';
import { inheritedCustom } from '../quotes/custom.js';
import { writeTogether } from '../quotes/together.js';
import { optionalFlag, sourceVersion, workflowState } from '../quotes/workflow.js';
import { STAGED_QUOTE_CUSTOM_FIELDS_TYPE_ID, type StagedQuote } from './staged-quote.js';
import { concurrentModification } from '@herald/model';

type StagedQuoteFields = Omit<StagedQuote, ServerFields>;

export const stagedQuoteCreated = (stagedQuote: StagedQuote): MessagePayload => ({ type: 'StagedQuoteCreated', stagedQuote });

/** StagedQuoteDraft, validated; the documents it names are read but not yet written. */
interface StagedQuotePlan {
  quoteRequest: QuoteRequest;
  toAccepted: boolean;
  fields: Omit<StagedQuoteFields, 'quotationCart'>;
}

/**
 * The quote request a staged quote can be made from (§2.3 "Accepted — negotiation continues with a
 * Staged Quote"): Accepted, or Submitted when the draft asks to accept it
 * (`quoteRequestStateToAccepted`). The version is checked first: a stale one is a 409.
 */
function assertStageable(quoteRequest: QuoteRequest, version: number, toAccepted: boolean): void {
  if (quoteRequest.version !== version) throw concurrentModification(quoteRequest.version, version);
  const state = quoteRequest.quoteRequestState;
  if (state === 'Accepted' || (state === 'Submitted' && toAccepted)) return;
  throw invalidOperation(
    `A staged quote can only be created from an Accepted quote request (or a Submitted one with "quoteRequestStateToAccepted": true); the quote request '${quoteRequest.id}' is ${state}.`,
  );
}

async function plan(body: unknown, ctx: RequestContext): Promise<StagedQuotePlan> {
  const draft: Draft = asDraft(body, 'StagedQuoteDraft');
  const locator: Locator = identifierLocator(draft.quoteRequest, 'quoteRequest', 'quote-request');
  const version = sourceVersion(draft.quoteRequestVersion, 'quoteRequestVersion');
  const toAccepted = optionalFlag(draft.quoteRequestStateToAccepted, 'quoteRequestStateToAccepted');
  const quoteRequest = await loadReferenced<QuoteRequest>(ctx.load, 'quote-request', locator);
  assertStageable(quoteRequest, version, toAccepted);
  const fields: StagedQuotePlan['fields'] = {
    stagedQuoteState: 'InProgress',
    customer: { ...quoteRequest.customer },
    quoteRequest: { typeId: 'quote-request', id: quoteRequest.id },
  };
  const key = optionalKey(draft.key);
  if (key !== undefined) fields.key = key;
  if (quoteRequest.store !== undefined) fields.store = { ...quoteRequest.store };
  if (quoteRequest.businessUnit !== undefined) fields.businessUnit = { ...quoteRequest.businessUnit };
  if (draft.state !== undefined && draft.state !== null) {
    const state = await workflowState(ctx.load, draft.state, 'state', 'StagedQuoteState');
    fields.state = { typeId: 'state', id: state.id };
  }
  const custom = await inheritedCustom(draft.custom, quoteRequest.custom, STAGED_QUOTE_CUSTOM_FIELDS_TYPE_ID, ctx);
  if (custom !== undefined) fields.custom = custom;
  const purchaseOrderNumber = await purchaseOrderNumberOf(quoteRequest, ctx);
  if (purchaseOrderNumber !== undefined) fields.purchaseOrderNumber = purchaseOrderNumber;
  return { quoteRequest, toAccepted, fields };
}

/** The reference's StagedQuote.purchaseOrderNumber "typically set by the Buyer": the buyer's cart's. */
async function purchaseOrderNumberOf(quoteRequest: QuoteRequest, ctx: RequestContext): Promise<string | undefined> {
  if (quoteRequest.cart === undefined) return undefined;
  const cart = await ctx.load<Cart>('cart', { id: quoteRequest.cart.id });
  return cart?.purchaseOrderNumber;
}

/**
 * The quotation cart (reference StagedQuote.quotationCart): a copy of the quote request's items,
 * prices, shipping, taxes and addresses that the seller edits through the carts API. Its origin
 * `Quote` keeps it out of the buyer's active cart.
 */
export function quotationCartFields(quoteRequest: QuoteRequest, ctx: RequestContext): Omit<Cart, ServerFields> {
  const copy = structuredClone(quoteRequest);
  const quantity = copy.lineItems.reduce((total, item) => total + item.quantity, 0);
  const cart: Omit<Cart, ServerFields> = {
    cartState: 'Active',
    origin: 'Quote',
    customerId: copy.customer.id,
    lineItems: copy.lineItems,
    customLineItems: copy.customLineItems,
    ...(copy.lineItems.length === 0 ? {} : { totalLineItemQuantity: quantity }),
    totalPrice: copy.totalPrice,
    itemShippingAddresses: copy.itemShippingAddresses,
    discountCodes: [],
    directDiscounts: copy.directDiscounts,
    inventoryMode: copy.inventoryMode,
    taxMode: copy.taxMode,
    priceRoundingMode: copy.priceRoundingMode,
    taxRoundingMode: copy.taxRoundingMode,
    taxCalculationMode: copy.taxCalculationMode,
    shippingMode: 'Single',
    shipping: [],
    refusedGifts: [],
    deleteDaysAfterLastModification: cartDeleteDays(undefined, 'deleteDaysAfterLastModification', ctx.project),
  };
  const optional = {
    store: copy.store,
    businessUnit: copy.businessUnit,
    country: copy.country,
    shippingAddress: copy.shippingAddress,
    billingAddress: copy.billingAddress,
    shippingRateInput: copy.shippingRateInput,
    customerGroup: copy.customerGroup,
    shippingInfo: copy.shippingInfo,
    taxedPrice: copy.taxedPrice,
    // Cart.taxedShippingPrice: the shipping's share of the taxed price, as the cart's taxes give it.
    taxedShippingPrice: copy.shippingInfo?.taxedPrice === undefined ? undefined : cartTaxedPrice(copy.totalPrice.currencyCode, [copy.shippingInfo.taxedPrice]),
  };
  for (const [field, value] of Object.entries(optional)) if (value !== undefined) Object.assign(cart, { [field]: value });
  return cart;
}

/** Accepts the quote request when the draft asks to (message QuoteRequestStateChanged). */
async function acceptQuoteRequest(store: DocumentStore, ctx: RequestContext, planned: StagedQuotePlan): Promise<void> {
  const { quoteRequest, toAccepted } = planned;
  await store.update<QuoteRequest>(ctx.write, 'quote-request', { id: quoteRequest.id }, quoteRequest.version, (current) => {
    const from = current.quoteRequestState;
    if (!toAccepted || from === 'Accepted') return { doc: current };
    current.quoteRequestState = 'Accepted';
    return { doc: current, messages: [{ type: 'QuoteRequestStateChanged', quoteRequestState: 'Accepted', oldQuoteRequestState: from }] };
  });
}

/** One staged quote per quote request: the negotiation continues with it (§2.3). */
async function assertNotStagedYet(store: DocumentStore, ctx: RequestContext, quoteRequestId: string): Promise<void> {
  const existing = await store.db.query(
    `SELECT id FROM resources WHERE project_key = $1 AND type_id = 'staged-quote' AND doc #>> '{quoteRequest,id}' = $2 LIMIT 1`,
    [ctx.projectKey, quoteRequestId],
  );
  if (existing.rows.length > 0) throw invalidOperation(`The quote request '${quoteRequestId}' has a staged quote already.`);
}

/**
 * POST /staged-quotes: the quote request (locked, version-checked, maybe accepted), the quotation
 * cart and the staged quote are written in one transaction with their messages.
 */
export async function createStagedQuote(body: unknown, ctx: RequestContext, documents: DocumentStore): Promise<StagedQuote> {
  const planned = await plan(body, ctx);
  return writeTogether(documents, async (store) => {
    await acceptQuoteRequest(store, ctx, planned);
    await assertNotStagedYet(store, ctx, planned.quoteRequest.id);
    const cart = await store.create<Cart>(ctx.write, 'cart', quotationCartFields(planned.quoteRequest, ctx));
    const fields: StagedQuoteFields = { ...planned.fields, quotationCart: { typeId: 'cart', id: cart.id } };
    return store.create<StagedQuote>(ctx.write, 'staged-quote', fields, (doc) => [stagedQuoteCreated(doc)]);
  });
}
