import { concurrentModification, invalidOperation, requiredField } from '@herald/model';
import type { DocumentStore, Locator, ServerFields } from '@herald/store';
import { requireBusinessUnitBuyer } from '../business-units/business-unit-buyer.js';
import { isExpired, type Quote } from '../quotes/quote.js';
import { writeTogether } from '../quotes/together.js';
import { optionalFlag, sourceVersion } from '../quotes/workflow.js';
import type { RequestContext } from '../shared/context.js';
import { cartTaxedPrice } from '../carts/taxed-price.js';
import { identifierLocator, referencedResourceNotFound } from '../shared/references.js';
import { asDraft, type Draft } from '../shared/validation.js';
import { assertOrderNumberFree, orderCreated, orderDraftFields, orderShippingInfo } from './fields.js';
import { initialLineItemState, withItemStates } from './item-states.js';
import type { Order } from './order.js';

type OrderFields = Omit<Order, ServerFields>;

/** OrderFromQuoteDraft names the quote by `quote`; MyOrderFromQuoteDraft by `id`. */
function quoteLocator(draft: Draft): Locator {
  if (draft.quote !== undefined && draft.quote !== null) return identifierLocator(draft.quote, 'quote', 'quote');
  if (typeof draft.id === 'string') return { id: draft.id };
  throw requiredField('quote');
}

/**
 * Reference "Create Order from Quote": the quote "must have the Pending state and must be valid
 * (not past the validTo date); otherwise, an InvalidOperation error is returned".
 */
function assertOrderable(quote: Quote, version: number, now: Date): void {
  if (quote.version !== version) throw concurrentModification(quote.version, version);
  if (quote.quoteState !== 'Pending') throw invalidOperation(`The quote '${quote.id}' is ${quote.quoteState}; only a Pending quote can be ordered.`);
  if (isExpired(quote, now)) throw invalidOperation(`The quote '${quote.id}' expired at ${quote.validTo ?? ''}; it cannot be ordered any more.`);
}

/** The order's content: the negotiated offer, as the quote holds it. */
function copiedFromQuote(quote: Quote): OrderFields {
  const copy = structuredClone(quote);
  const fields: OrderFields = {
    origin: 'Quote',
    quote: { typeId: 'quote', id: copy.id },
    lineItems: copy.lineItems,
    customLineItems: copy.customLineItems,
    totalPrice: copy.totalPrice,
    priceRoundingMode: copy.priceRoundingMode,
    taxMode: copy.taxMode,
    taxRoundingMode: copy.taxRoundingMode,
    taxCalculationMode: copy.taxCalculationMode,
    shippingMode: 'Single',
    shipping: [],
    itemShippingAddresses: copy.itemShippingAddresses,
    discountCodes: [],
    directDiscounts: copy.directDiscounts,
    refusedGifts: [],
    orderState: 'Open',
    syncInfo: [],
    returnInfo: [],
  };
  const optional = {
    customerId: copy.customer?.id,
    businessUnit: copy.businessUnit,
    store: copy.store,
    inventoryMode: copy.inventoryMode,
    billingAddress: copy.billingAddress,
    shippingAddress: copy.shippingAddress,
    shippingRateInput: copy.shippingRateInput,
    taxedPrice: copy.taxedPrice,
    // The negotiated shipping and the group its prices were selected for (reference Quote.shippingInfo,
    // Quote.customerGroup).
    shippingInfo: orderShippingInfo(copy.shippingInfo),
    taxedShippingPrice: copy.shippingInfo?.taxedPrice === undefined ? undefined : cartTaxedPrice(copy.totalPrice.currencyCode, [copy.shippingInfo.taxedPrice]),
    customerGroup: copy.customerGroup,
    country: copy.country,
    purchaseOrderNumber: copy.purchaseOrderNumber,
  };
  for (const [field, value] of Object.entries(optional)) if (value !== undefined) Object.assign(fields, { [field]: value });
  return fields;
}

/** One order per quote: a Pending quote left Pending (no `quoteStateToAccepted`) is still ordered once. */
async function assertNotOrderedYet(store: DocumentStore, projectKey: string, quoteId: string): Promise<void> {
  const existing = await store.db.query(`SELECT id FROM resources WHERE project_key = $1 AND type_id = 'order' AND doc #>> '{quote,id}' = $2 LIMIT 1`, [
    projectKey,
    quoteId,
  ]);
  if (existing.rows.length > 0) throw invalidOperation(`The quote '${quoteId}' has been ordered already.`);
}

/** Who orders: the buyer's `customerId` on `/me/orders/quotes`; `authorize` checks an associate's permission (as-associate). */
export interface QuoteOrderingParty {
  customerId?: string;
  authorize?(quote: Quote): Promise<void>;
}

/**
 * POST /orders/quotes (OrderFromQuoteDraft) and, with `customerId`, /me/orders/quotes
 * (MyOrderFromQuoteDraft: the buyer's own quote). The quote (locked, version-checked, maybe
 * Accepted) and the order commit together with their messages.
 */
export async function createOrderFromQuote(
  body: unknown,
  ctx: RequestContext,
  documents: DocumentStore,
  now: Date,
  party: QuoteOrderingParty = {},
): Promise<Order> {
  const { customerId } = party;
  const draft = asDraft(body, customerId === undefined ? 'OrderFromQuoteDraft' : 'MyOrderFromQuoteDraft');
  const locator = quoteLocator(draft);
  const version = sourceVersion(draft.version, 'version');
  const toAccepted = optionalFlag(draft.quoteStateToAccepted, 'quoteStateToAccepted');
  const quote = await ctx.load<Quote>('quote', locator);
  if (quote === undefined || (customerId !== undefined && quote.customer?.id !== customerId)) throw referencedResourceNotFound('quote', locator);
  await party.authorize?.(quote);
  assertOrderable(quote, version, now);
  await requireBusinessUnitBuyer({ get: (_projectKey, typeId, at) => ctx.load(typeId, at) }, ctx.projectKey, quote.businessUnit, ctx.auth);
  const fields: OrderFields = withItemStates(copiedFromQuote(quote), await initialLineItemState(documents, ctx.projectKey));
  if (customerId === undefined) Object.assign(fields, await orderDraftFields(draft, ctx));
  return writeTogether(documents, async (store) => {
    await assertOrderNumberFree(store.db, ctx.projectKey, fields.orderNumber);
    await assertNotOrderedYet(store, ctx.projectKey, quote.id);
    await store.update<Quote>(ctx.write, 'quote', { id: quote.id }, version, (current) => {
      if (current.quoteState !== 'Pending') throw invalidOperation(`The quote '${quote.id}' is ${current.quoteState}; only a Pending quote can be ordered.`);
      if (!toAccepted) return { doc: current };
      current.quoteState = 'Accepted';
      return { doc: current, messages: [{ type: 'QuoteStateChanged', quoteState: 'Accepted', oldQuoteState: 'Pending' }] };
    });
    return store.create<Order>(ctx.write, 'order', fields, (doc) => [orderCreated(doc)]);
  });
}
