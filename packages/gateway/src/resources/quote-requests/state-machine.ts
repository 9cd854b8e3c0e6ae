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
 * The negotiation (§3.1, §2.3). A buyer may only cancel, and only from Submitted (§3.1; the
 * reference's changeQuoteRequestState states the same rule and no rule for the seller). The seller
 * (the merchant's API client) may set every state but two moves that would contradict §2.3's
 * meanings: back to Submitted ("seller has not decided") and into Closed from anything but
 * Accepted ("accepted earlier"); Closed is final for both ("no further action by any party").
 * "Changing" to the current state is refused too.
 */
export const FINAL_STATES: ReadonlySet<QuoteRequestState> = new Set(['Closed', 'Rejected', 'Cancelled']);

export function quoteRequestState(value: unknown, field = 'quoteRequestState'): QuoteRequestState {
  if (typeof value !== 'string' || !(QUOTE_REQUEST_STATES as readonly string[]).includes(value)) {
    throw invalidInput(`'${field}' must be one of ${QUOTE_REQUEST_STATES.join(', ')}.`, { field, invalidValue: value });
  }
  return value as QuoteRequestState;
}

function buyerRefusal(from: QuoteRequestState, to: QuoteRequestState): string | undefined {
  if (from === 'Submitted' && to === 'Cancelled') return undefined;
  if (FINAL_STATES.has(from)) return `The quote request is ${from}, a final state; it cannot change any more.`;
  return `A buyer can only cancel a quote request, and only while it is Submitted (it is ${from}).`;
}

function sellerRefusal(from: QuoteRequestState, to: QuoteRequestState): string | undefined {
  if (from === 'Closed') return 'The quote request is Closed, a final state; it cannot change any more.';
  if (from === to) return `The quote request is ${from} already.`;
  if (to === 'Submitted') return 'A quote request cannot go back to Submitted: that state means the seller has not decided yet.';
  if (to === 'Closed' && from !== 'Accepted') return `Only an Accepted quote request can be Closed (it is ${from}).`;
  return undefined;
}

/** Why `party` may not move a quote request from `from` to `to`; undefined when it may. */
export function stateChangeRefusal(from: QuoteRequestState, to: QuoteRequestState, party: Party): string | undefined {
  return party === 'buyer' ? buyerRefusal(from, to) : sellerRefusal(from, to);
}
