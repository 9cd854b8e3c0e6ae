import { invalidInput, invalidOperation, type MessagePayload } from '@herald/model';
import { identifierLocator, loadReferenced } from '../shared/references.js';
import { customFieldActions } from '../shared/custom-fields.js';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import { QUOTE_REQUEST_CUSTOM_FIELDS_TYPE_ID } from './draft.js';
import type { QuoteRequest } from './quote-request.js';
import { partyOf, quoteRequestState, stateChangeRefusal, type Party } from './state-machine.js';
import { transitionState } from './transition.js';

/** `changeQuoteRequestState` as `party` (fixed on `/me`, from the token elsewhere). */
function changeState(fixedParty?: Party): ActionHandler<QuoteRequest> {
  return (quoteRequest, action, { ctx }): MessagePayload[] => {
    const to = quoteRequestState(action.quoteRequestState);
    const party = fixedParty ?? partyOf(ctx.auth);
    if (party === 'buyer' && quoteRequest.customer.id !== ctx.auth?.customerId) {
      throw invalidOperation('A buyer can only change the state of their own quote requests.');
    }
    const from = quoteRequest.quoteRequestState;
    const refusal = stateChangeRefusal(from, to, party);
    if (refusal !== undefined) throw invalidOperation(refusal);
    quoteRequest.quoteRequestState = to;
    return [{ type: 'QuoteRequestStateChanged', quoteRequestState: to, oldQuoteRequestState: from }];
  };
}

/**
 * The reference's changeCustomer {customer}: a new owner (an existing Customer); the customer
 * group is not updated. Message QuoteRequestCustomerChanged {customer, previousCustomer}.
 */
const changeCustomer: ActionHandler<QuoteRequest> = async (quoteRequest, action, { reader }): Promise<MessagePayload[]> => {
  if (action.customer === undefined || action.customer === null) throw invalidInput("'customer' is required.", { field: 'customer' });
  const customer = await loadReferenced(reader.get, 'customer', identifierLocator(action.customer, 'customer', 'customer'));
  const previousCustomer = quoteRequest.customer;
  if (previousCustomer.id === customer.id) return [];
  quoteRequest.customer = { typeId: 'customer', id: customer.id };
  return [{ type: 'QuoteRequestCustomerChanged', customer: quoteRequest.customer, previousCustomer }];
};

/**
 * §4.1 update actions, and the reference's changeCustomer. Custom fields produce no messages: the platform's quote request messages
 * are the five of MESSAGE_TYPES['quote-request'].
 */
export const quoteRequestActions: ActionHandlers<QuoteRequest> = {
  changeQuoteRequestState: changeState(),
  changeCustomer,
  transitionState,
  ...customFieldActions<QuoteRequest>(QUOTE_REQUEST_CUSTOM_FIELDS_TYPE_ID, { messages: false }),
};

/**
 * `cancelQuoteRequest` (no fields): the name the official commercetools SDK (platform-sdk 8.x,
 * `MyQuoteRequestCancelAction`) sends for a buyer's cancel on `/me/quote-requests`. It is the same
 * change as `changeMyQuoteRequestState` to `Cancelled`, with the same rules and message.
 */
function cancelAsBuyer(): ActionHandler<QuoteRequest> {
  const change = changeState('buyer');
  return (quoteRequest, action, scope) => change(quoteRequest, { ...action, quoteRequestState: 'Cancelled' }, scope);
}

/** `/me/quote-requests`: a buyer can only cancel (the platform's `changeMyQuoteRequestState`). */
export const myQuoteRequestActions: ActionHandlers<QuoteRequest> = {
  changeMyQuoteRequestState: changeState('buyer'),
  changeQuoteRequestState: changeState('buyer'),
  cancelQuoteRequest: cancelAsBuyer(),
};
