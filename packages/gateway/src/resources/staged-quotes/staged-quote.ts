import type { BaseResource, CustomFields, KeyReference, Reference } from '@herald/model';

/** Reference StagedQuoteState: InProgress (initial) → Sent → Closed. */
export const STAGED_QUOTE_STATES = ['InProgress', 'Sent', 'Closed'] as const;
export type StagedQuoteState = (typeof STAGED_QUOTE_STATES)[number];

/** Reference StagedQuote: the seller's offer in preparation, with its own quotation cart. */
export interface StagedQuote extends BaseResource {
  key?: string;
  stagedQuoteState: StagedQuoteState;
  customer?: Reference<'customer'>;
  quoteRequest: Reference<'quote-request'>;
  quotationCart: Reference<'cart'>;
  validTo?: string;
  sellerComment?: string;
  custom?: CustomFields;
  state?: Reference<'state'>;
  purchaseOrderNumber?: string;
  businessUnit?: KeyReference<'business-unit'>;
  store?: KeyReference<'store'>;
}

/** Custom fields of staged quotes are defined by Types for the resource type id `staged-quote`. */
export const STAGED_QUOTE_CUSTOM_FIELDS_TYPE_ID = 'staged-quote';
