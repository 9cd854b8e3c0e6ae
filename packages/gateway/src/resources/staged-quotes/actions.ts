import { invalidInput, invalidOperation, type MessagePayload } from '@herald/model';
import { customFieldActions } from '../shared/custom-fields.js';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import { optionalString } from '../shared/validation.js';
import { transitionStateAction } from '../quotes/workflow.js';
import { STAGED_QUOTE_CUSTOM_FIELDS_TYPE_ID, STAGED_QUOTE_STATES, type StagedQuote, type StagedQuoteState } from './staged-quote.js';

export function stagedQuoteState(value: unknown): StagedQuoteState {
  if (typeof value !== 'string' || !(STAGED_QUOTE_STATES as readonly string[]).includes(value)) {
    throw invalidInput(`'stagedQuoteState' must be one of ${STAGED_QUOTE_STATES.join(', ')}.`, { field: 'stagedQuoteState', invalidValue: value });
  }
  return value as StagedQuoteState;
}

/**
 * Why a staged quote may not move from `from` to `to`; undefined when it may. Reference
 * StagedQuoteState: Closed means "the StagedQuote flow was finished", so it is final; Sent goes
 * back to InProgress when the buyer asks for a renegotiation and the seller revises the offer.
 */
export function stagedQuoteRefusal(from: StagedQuoteState, to: StagedQuoteState): string | undefined {
  if (from === 'Closed') return 'The staged quote is Closed, a final state; it cannot change any more.';
  if (from === to) return `The staged quote is ${from} already.`;
  return undefined;
}

const changeStagedQuoteState: ActionHandler<StagedQuote> = (stagedQuote, action): MessagePayload[] => {
  const to = stagedQuoteState(action.stagedQuoteState);
  const from = stagedQuote.stagedQuoteState;
  const refusal = stagedQuoteRefusal(from, to);
  if (refusal !== undefined) throw invalidOperation(refusal);
  stagedQuote.stagedQuoteState = to;
  return [{ type: 'StagedQuoteStateChanged', stagedQuoteState: to, oldStagedQuoteState: from }];
};

/** Reference setSellerComment: absent or null removes it. Message StagedQuoteSellerCommentSet. */
const setSellerComment: ActionHandler<StagedQuote> = (stagedQuote, action): MessagePayload[] => {
  const sellerComment = optionalString(action.sellerComment, 'sellerComment');
  if (sellerComment === stagedQuote.sellerComment) return [];
  if (sellerComment === undefined) delete stagedQuote.sellerComment;
  else stagedQuote.sellerComment = sellerComment;
  return [{ type: 'StagedQuoteSellerCommentSet', ...(sellerComment === undefined ? {} : { sellerComment }) }];
};

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A reference `datetime`, kept in UTC as the API answers its timestamps. */
export function optionalDateTime(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !DATE_TIME.test(value) || Number.isNaN(Date.parse(value))) {
    throw invalidInput(`'${field}' must be a date and time in ISO 8601 format, such as 2026-12-31T23:59:59.000Z.`, { field, invalidValue: value });
  }
  return new Date(value).toISOString();
}

/** Reference setValidTo: absent or null removes it. Message StagedQuoteValidToSet. */
const setValidTo: ActionHandler<StagedQuote> = (stagedQuote, action): MessagePayload[] => {
  const validTo = optionalDateTime(action.validTo, 'validTo');
  if (validTo === stagedQuote.validTo) return [];
  if (validTo === undefined) delete stagedQuote.validTo;
  else stagedQuote.validTo = validTo;
  return [{ type: 'StagedQuoteValidToSet', ...(validTo === undefined ? {} : { validTo }) }];
};

/**
 * Reference StagedQuoteUpdateAction. Custom fields produce no messages: the reference has no
 * StagedQuoteCustom* messages (MESSAGE_TYPES['staged-quote']).
 */
export const stagedQuoteActions: ActionHandlers<StagedQuote> = {
  changeStagedQuoteState,
  setSellerComment,
  setValidTo,
  transitionState: transitionStateAction<StagedQuote>('StagedQuoteState', 'StagedQuoteStateTransition'),
  ...customFieldActions<StagedQuote>(STAGED_QUOTE_CUSTOM_FIELDS_TYPE_ID, { messages: false }),
};
