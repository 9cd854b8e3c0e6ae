import { invalidInput } from '@herald/model';
import type { AuthContext } from '../../auth/types.js';
import { QUOTE_REQUEST_STATES, type QuoteRequestState } from './quote-request.js';

/**
 * Who asks for a `changeQuoteRequestState`: the buyer (a customer or anonymous token) or the
 * seller (an API client acting for the merchant, no customer in its token).
 */
export type Party = 'buyer' | 'seller';

export function partyOf(auth: AuthContext | undefined): Party {
  return auth?.customerId !== undefined || auth?.anonymousId !== undefined ? 'buyer' : 'seller';
}

/**
 * The negotiation (§3.1, §2.3). The spec states only the buyer's cancel from Submitted; the
 * seller's moves follow the meaning of the states: a seller decides a Submitted request (Accepted
 * or Rejected) and closes an Accepted one. Closed, Rejected and Cancelled are final. Everything
 * not listed here is refused, including "changing" to the current state.
 */
const ALLOWED: Readonly<Record<Party, ReadonlyArray<readonly [QuoteRequestState, QuoteRequestState]>>> = {
  buyer: [['Submitted', 'Cancelled']],
  seller: [
    ['Submitted', 'Accepted'],
    ['Submitted', 'Rejected'],
    ['Accepted', 'Closed'],
  ],
};

export const FINAL_STATES: ReadonlySet<QuoteRequestState> = new Set(['Closed', 'Rejected', 'Cancelled']);

export function quoteRequestState(value: unknown, field = 'quoteRequestState'): QuoteRequestState {
  if (typeof value !== 'string' || !(QUOTE_REQUEST_STATES as readonly string[]).includes(value)) {
    throw invalidInput(`'${field}' must be one of ${QUOTE_REQUEST_STATES.join(', ')}.`, { field, invalidValue: value });
  }
  return value as QuoteRequestState;
}

/** Why `party` may not move a quote request from `from` to `to`; undefined when it may. */
export function stateChangeRefusal(from: QuoteRequestState, to: QuoteRequestState, party: Party): string | undefined {
  if (ALLOWED[party].some(([allowedFrom, allowedTo]) => allowedFrom === from && allowedTo === to)) return undefined;
  if (FINAL_STATES.has(from)) return `The quote request is ${from}, a final state; it cannot change any more.`;
  if (party === 'buyer') return `A buyer can only cancel a quote request, and only while it is Submitted (it is ${from}).`;
  return `A seller cannot change a quote request from ${from} to ${to}; allowed are Submitted to Accepted or Rejected, and Accepted to Closed.`;
}
