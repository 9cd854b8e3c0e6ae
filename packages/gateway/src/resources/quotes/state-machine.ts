import { invalidInput } from '@herald/model';
import { QUOTE_STATES, type QuoteState } from './quote.js';

export function quoteState(value: unknown, field = 'quoteState', allowed: readonly QuoteState[] = QUOTE_STATES): QuoteState {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw invalidInput(`'${field}' must be one of ${allowed.join(', ')}.`, { field, invalidValue: value });
  }
  return value as QuoteState;
}

/**
 * States after which the offer is over (reference QuoteState): the buyer accepted or declined it,
 * the seller withdrew it, or a newer quote addressed its renegotiation.
 */
const FINAL: ReadonlySet<QuoteState> = new Set(['Accepted', 'Declined', 'Withdrawn', 'RenegotiationAddressed']);

/** The states each move may start from (reference QuoteState descriptions). */
const SELLER_FROM: Readonly<Record<QuoteState, readonly QuoteState[]>> = {
  // Pending is the initial state, "assigned when a Quote is created".
  Pending: [],
  // The seller records the buyer's answer to a pending offer.
  Accepted: ['Pending'],
  Declined: ['Pending', 'DeclinedForRenegotiation'],
  // Only through requestQuoteRenegotiation (reference QuoteChangeQuoteStateAction).
  DeclinedForRenegotiation: [],
  // "the Seller has created a new Quote after a renegotiation has been requested".
  RenegotiationAddressed: ['DeclinedForRenegotiation'],
  // "withdrawn the Quote before the Buyer has accepted it".
  Withdrawn: ['Pending', 'DeclinedForRenegotiation'],
};

/** Why the seller's changeQuoteState may not move `from` to `to`; undefined when it may. */
export function sellerQuoteRefusal(from: QuoteState, to: QuoteState): string | undefined {
  if (to === 'DeclinedForRenegotiation') return "A quote becomes DeclinedForRenegotiation only through the 'requestQuoteRenegotiation' update action.";
  if (from === to) return `The quote is ${from} already.`;
  if (FINAL.has(from)) return `The quote is ${from}, a final state; it cannot change any more.`;
  if (to === 'Pending') return 'A quote cannot go back to Pending, the state it is created in.';
  if (!SELLER_FROM[to].includes(from)) return `A quote cannot become ${to} while it is ${from}.`;
  return undefined;
}

/** The buyer answers a Pending offer only: accept, decline (MyQuoteState) or ask to renegotiate. */
export function buyerQuoteRefusal(from: QuoteState, answer: string): string | undefined {
  if (from === 'Pending') return undefined;
  return `Only a Pending quote can be ${answer}; the quote is ${from}.`;
}
