import { concurrentModification, invalidOperation, type MessagePayload } from '@herald/model';
import type { DocumentStore, Locator, ServerFields } from '@herald/store';
import type { Cart } from '../carts/cart.js';
import { simpleTaxedPrice } from '../quote-requests/draft.js';
import type { RequestContext } from '../shared/context.js';
import { identifierLocator, loadReferenced } from '../shared/references.js';
import { asDraft, optionalKey } from '../shared/validation.js';
import type { StagedQuote } from '../staged-quotes/staged-quote.js';
import { inheritedCustom } from './custom.js';
import { QUOTE_CUSTOM_FIELDS_TYPE_ID, type Quote } from './quote.js';
import { writeTogether } from './together.js';
import { optionalFlag, sourceVersion, workflowState } from './workflow.js';

type QuoteFields = Omit<Quote, ServerFields>;

export const quoteCreated = (quote: Quote): MessagePayload => ({ type: 'QuoteCreated', quote });

interface QuotePlan {
  stagedQuote: StagedQuote;
  toSent: boolean;
  /** What the draft itself sets; the offer's content comes from the quotation cart when writing. */
  own: Pick<QuoteFields, 'key' | 'state' | 'custom'>;
}

async function plan(body: unknown, ctx: RequestContext): Promise<QuotePlan> {
  const draft = asDraft(body, 'QuoteDraft');
  const locator: Locator = identifierLocator(draft.stagedQuote, 'stagedQuote', 'staged-quote');
  const version = sourceVersion(draft.stagedQuoteVersion, 'stagedQuoteVersion');
  const toSent = optionalFlag(draft.stagedQuoteStateToSent, 'stagedQuoteStateToSent');
  const stagedQuote = await loadReferenced<StagedQuote>(ctx.load, 'staged-quote', locator);
  if (stagedQuote.version !== version) throw concurrentModification(stagedQuote.version, version);
  if (stagedQuote.stagedQuoteState === 'Closed') {
    throw invalidOperation(`The staged quote '${stagedQuote.id}' is Closed: no quote can be created from it any more.`);
  }
  const own: QuotePlan['own'] = {};
  const key = optionalKey(draft.key);
  if (key !== undefined) own.key = key;
  if (draft.state !== undefined && draft.state !== null) {
    own.state = { typeId: 'state', id: (await workflowState(ctx.load, draft.state, 'state', 'QuoteState')).id };
  }
  const custom = await inheritedCustom(draft.custom, stagedQuote.custom, QUOTE_CUSTOM_FIELDS_TYPE_ID, ctx);
  if (custom !== undefined) own.custom = custom;
  return { stagedQuote, toSent, own };
}

/** The offer: the quotation cart's content as the seller left it, and the staged quote's terms. */
function offerFields(stagedQuote: StagedQuote, cart: Cart): QuoteFields {
  const copy = structuredClone(cart);
  const fields: QuoteFields = {
    quoteState: 'Pending',
    quoteRequest: { ...stagedQuote.quoteRequest },
    stagedQuote: { typeId: 'staged-quote', id: stagedQuote.id },
    lineItems: copy.lineItems,
    customLineItems: copy.customLineItems,
    totalPrice: copy.totalPrice,
    inventoryMode: copy.inventoryMode,
    taxMode: copy.taxMode,
    priceRoundingMode: copy.priceRoundingMode,
    taxRoundingMode: copy.taxRoundingMode,
    taxCalculationMode: copy.taxCalculationMode,
    itemShippingAddresses: copy.itemShippingAddresses,
    directDiscounts: copy.directDiscounts,
  };
  if (copy.shippingAddress !== undefined) fields.taxedPrice = copy.taxedPrice ?? simpleTaxedPrice(copy.totalPrice);
  const optional = {
    customer: stagedQuote.customer,
    validTo: stagedQuote.validTo,
    sellerComment: stagedQuote.sellerComment,
    store: stagedQuote.store,
    businessUnit: stagedQuote.businessUnit,
    purchaseOrderNumber: stagedQuote.purchaseOrderNumber,
    shippingAddress: copy.shippingAddress,
    billingAddress: copy.billingAddress,
    country: copy.country,
    shippingRateInput: copy.shippingRateInput,
    customerGroup: copy.customerGroup,
    shippingInfo: copy.shippingInfo,
  };
  for (const [field, value] of Object.entries(optional)) if (value !== undefined) Object.assign(fields, { [field]: structuredClone(value) });
  return fields;
}

/** Sends the staged quote when the draft asks to (`stagedQuoteStateToSent`; message StagedQuoteStateChanged). */
async function sendStagedQuote(store: DocumentStore, ctx: RequestContext, planned: QuotePlan): Promise<StagedQuote> {
  const { stagedQuote, toSent } = planned;
  return store.update<StagedQuote>(ctx.write, 'staged-quote', { id: stagedQuote.id }, stagedQuote.version, (current) => {
    const from = current.stagedQuoteState;
    if (from === 'Closed') throw invalidOperation(`The staged quote '${current.id}' is Closed: no quote can be created from it any more.`);
    if (!toSent || from === 'Sent') return { doc: current };
    current.stagedQuoteState = 'Sent';
    return { doc: current, messages: [{ type: 'StagedQuoteStateChanged', stagedQuoteState: 'Sent', oldStagedQuoteState: from }] };
  });
}

async function quotesOf(store: DocumentStore, ctx: RequestContext, stagedQuoteId: string): Promise<Quote[]> {
  const result = await store.db.query<{ doc: Quote }>(
    `SELECT doc FROM resources WHERE project_key = $1 AND type_id = 'quote' AND doc #>> '{stagedQuote,id}' = $2`,
    [ctx.projectKey, stagedQuoteId],
  );
  return result.rows.map((row) => row.doc);
}

/**
 * A new offer answers the renegotiation the buyer asked for: the earlier quotes of the staged
 * quote that are DeclinedForRenegotiation become RenegotiationAddressed (reference QuoteState: "the
 * Seller has created a new Quote after a renegotiation has been requested"). A staged quote has
 * one open offer at a time: with a Pending quote, a new one is refused.
 */
async function settleEarlierQuotes(store: DocumentStore, ctx: RequestContext, stagedQuoteId: string): Promise<void> {
  const earlier = await quotesOf(store, ctx, stagedQuoteId);
  const pending = earlier.find((quote) => quote.quoteState === 'Pending');
  if (pending !== undefined) {
    throw invalidOperation(`The staged quote '${stagedQuoteId}' has a Pending quote ('${pending.id}'); withdraw it before sending a new one.`);
  }
  for (const quote of earlier.filter(({ quoteState }) => quoteState === 'DeclinedForRenegotiation')) {
    await store.update<Quote>(ctx.write, 'quote', { id: quote.id }, quote.version, (current) => {
      current.quoteState = 'RenegotiationAddressed';
      return { doc: current, messages: [{ type: 'QuoteStateChanged', quoteState: 'RenegotiationAddressed', oldQuoteState: 'DeclinedForRenegotiation' }] };
    });
  }
}

/**
 * POST /quotes: the staged quote (locked, version-checked, maybe sent), the earlier quotes it
 * settles and the new quote are written in one transaction with their messages.
 */
export async function createQuote(body: unknown, ctx: RequestContext, documents: DocumentStore): Promise<Quote> {
  const planned = await plan(body, ctx);
  return writeTogether(documents, async (store) => {
    const stagedQuote = await sendStagedQuote(store, ctx, planned);
    const cart = await store.get<Cart>(ctx.projectKey, 'cart', { id: stagedQuote.quotationCart.id });
    if (cart === undefined) throw invalidOperation(`The quotation cart of the staged quote '${stagedQuote.id}' no longer exists.`);
    await settleEarlierQuotes(store, ctx, stagedQuote.id);
    const fields: QuoteFields = { ...offerFields(stagedQuote, cart), ...planned.own };
    return store.create<Quote>(ctx.write, 'quote', fields, (doc) => [quoteCreated(doc)]);
  });
}
