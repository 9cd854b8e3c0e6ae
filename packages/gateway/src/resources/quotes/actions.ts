import { invalidInput, invalidOperation, type MessagePayload } from '@herald/model';
import { customFieldActions } from '../shared/custom-fields.js';
import { identifierLocator, loadReferenced } from '../shared/references.js';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import { optionalString } from '../shared/validation.js';
import { QUOTE_CUSTOM_FIELDS_TYPE_ID, type Quote } from './quote.js';
import { buyerQuoteRefusal, quoteState, sellerQuoteRefusal } from './state-machine.js';
import { transitionStateAction } from './workflow.js';

const stateChanged = (quote: Quote, from: Quote['quoteState']): MessagePayload => ({
  type: 'QuoteStateChanged',
  quoteState: quote.quoteState,
  oldQuoteState: from,
});

/** The seller's changeQuoteState (reference QuoteChangeQuoteStateAction; rules in state-machine.ts). */
const changeQuoteState: ActionHandler<Quote> = (quote, action): MessagePayload[] => {
  const to = quoteState(action.quoteState);
  const from = quote.quoteState;
  const refusal = sellerQuoteRefusal(from, to);
  if (refusal !== undefined) throw invalidOperation(refusal);
  quote.quoteState = to;
  return [stateChanged(quote, from)];
};

/** The buyer's changeMyQuoteState {quoteState: Accepted | Declined} (reference MyQuoteState). */
const changeMyQuoteState: ActionHandler<Quote> = (quote, action): MessagePayload[] => {
  const to = quoteState(action.quoteState, 'quoteState', ['Accepted', 'Declined']);
  const from = quote.quoteState;
  const refusal = buyerQuoteRefusal(from, to.toLowerCase());
  if (refusal !== undefined) throw invalidOperation(refusal);
  quote.quoteState = to;
  return [stateChanged(quote, from)];
};

/**
 * Reference QuoteRequestQuoteRenegotiationAction {buyerComment?}: "Valid for Quotes in a Pending
 * state"; the only way into DeclinedForRenegotiation. Message QuoteRenegotiationRequested.
 */
const requestQuoteRenegotiation: ActionHandler<Quote> = (quote, action): MessagePayload[] => {
  const buyerComment = optionalString(action.buyerComment, 'buyerComment');
  const refusal = buyerQuoteRefusal(quote.quoteState, 'renegotiated');
  if (refusal !== undefined) throw invalidOperation(refusal);
  quote.quoteState = 'DeclinedForRenegotiation';
  if (buyerComment === undefined) delete quote.buyerComment;
  else quote.buyerComment = buyerComment;
  return [{ type: 'QuoteRenegotiationRequested', ...(buyerComment === undefined ? {} : { buyerComment }) }];
};

/** Reference QuoteChangeCustomerAction: a new owner; the customer group is not updated. */
const changeCustomer: ActionHandler<Quote> = async (quote, action, { reader }): Promise<MessagePayload[]> => {
  if (action.customer === undefined || action.customer === null) throw invalidInput("'customer' is required.", { field: 'customer' });
  const customer = await loadReferenced(reader.get, 'customer', identifierLocator(action.customer, 'customer', 'customer'));
  const previousCustomer = quote.customer;
  if (previousCustomer?.id === customer.id) return [];
  quote.customer = { typeId: 'customer', id: customer.id };
  return [{ type: 'QuoteCustomerChanged', customer: quote.customer, ...(previousCustomer === undefined ? {} : { previousCustomer }) }];
};

/**
 * Reference QuoteUpdateAction, for the seller's API clients. Custom fields produce no messages:
 * the reference has no QuoteCustom* messages.
 */
export const quoteActions: ActionHandlers<Quote> = {
  changeQuoteState,
  requestQuoteRenegotiation,
  changeCustomer,
  transitionState: transitionStateAction<Quote>('QuoteState', 'QuoteStateTransition'),
  ...customFieldActions<Quote>(QUOTE_CUSTOM_FIELDS_TYPE_ID, { messages: false }),
};

/** Reference MyQuoteUpdateAction: what the buyer may do with an offer (`/me/quotes`, as-associate). */
export const myQuoteActions: ActionHandlers<Quote> = {
  changeMyQuoteState,
  requestQuoteRenegotiation,
};
