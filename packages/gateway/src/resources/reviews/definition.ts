import { invalidInput, invalidOperation, type MessagePayload } from '@herald/model';
import type { ServerFields } from '@herald/store';
import { transitionRefusal } from '../quote-requests/transition.js';
import type { RequestContext } from '../shared/context.js';
import { customFieldActions, customFromDraft } from '../shared/custom-fields.js';
import type { ActionHandlers } from '../shared/update-actions.js';
import { asDraft, optionalKey } from '../shared/validation.js';
import type { ResourceDefinition } from '../shared/versioned-routes.js';
import type { State } from '../states/state.js';
import { customerOf, includedThrough, optionalLocale, optionalRating, optionalText, reviewState, reviewTarget } from './fields.js';
import { REVIEW_TYPE_ID, type Review } from './review.js';

type ReviewFields = Omit<Review, ServerFields>;

const given = (value: unknown): boolean => value !== undefined && value !== null;

/** Sets or (absent) removes an optional field. */
function setOptional<K extends keyof Review>(review: Review, field: K, value: Review[K] | undefined): void {
  if (value === undefined) delete review[field];
  else review[field] = value;
}

function draftTexts(draft: Record<string, unknown>): Partial<ReviewFields> {
  const fields: Partial<ReviewFields> = {};
  for (const field of ['uniquenessValue', 'authorName', 'title', 'text'] as const) {
    const value = optionalText(draft[field], field);
    if (value !== undefined) fields[field] = value;
  }
  const locale = optionalLocale(draft.locale);
  if (locale !== undefined) fields.locale = locale;
  const rating = optionalRating(draft.rating);
  if (rating !== undefined) fields.rating = rating;
  return fields;
}

/** The reference's ReviewDraft (types/review/ReviewDraft.raml): every field optional. */
async function reviewFromDraft(body: unknown, ctx: RequestContext): Promise<ReviewFields> {
  const draft = asDraft(body, 'ReviewDraft');
  const state = given(draft.state) ? await reviewState(draft.state, 'state', ctx.load) : undefined;
  const fields: ReviewFields = { ...draftTexts(draft), includedInStatistics: includedThrough(state) };
  const key = optionalKey(draft.key);
  if (key !== undefined) fields.key = key;
  if (state !== undefined) fields.state = { typeId: 'state', id: state.id };
  if (given(draft.target)) fields.target = await reviewTarget(draft.target, ctx.load);
  if (given(draft.customer)) fields.customer = await customerOf(draft.customer, ctx.load);
  const custom = await customFromDraft(draft.custom, REVIEW_TYPE_ID, ctx);
  if (custom !== undefined) fields.custom = custom;
  return fields;
}

function forceFlag(value: unknown): boolean {
  if (!given(value)) return false;
  if (typeof value !== 'boolean') throw invalidInput("'force' must be a boolean.", { field: 'force' });
  return value as boolean;
}

/** The reference's ReviewUpdateAction (types/review/updates); setRating and transitionState have messages. */
const reviewActions: ActionHandlers<Review> = {
  setKey: (review, action) => setOptional(review, 'key', optionalKey(action.key)),
  setAuthorName: (review, action) => setOptional(review, 'authorName', optionalText(action.authorName, 'authorName')),
  setTitle: (review, action) => setOptional(review, 'title', optionalText(action.title, 'title')),
  setText: (review, action) => setOptional(review, 'text', optionalText(action.text, 'text')),
  setLocale: (review, action) => setOptional(review, 'locale', optionalLocale(action.locale)),
  async setCustomer(review, action, { ctx }) {
    setOptional(review, 'customer', given(action.customer) ? await customerOf(action.customer, ctx.load) : undefined);
  },
  async setTarget(review, action, { ctx }) {
    if (!given(action.target)) throw invalidInput("'target' is required.", { field: 'target' });
    review.target = await reviewTarget(action.target, ctx.load);
  },
  /** ReviewRatingSetMessage {oldRating?, newRating?, includedInStatistics, target?}. */
  setRating(review, action): MessagePayload[] {
    const oldRating = review.rating;
    const newRating = optionalRating(action.rating);
    setOptional(review, 'rating', newRating);
    return [
      {
        type: 'ReviewRatingSet',
        ...(oldRating === undefined ? {} : { oldRating }),
        ...(newRating === undefined ? {} : { newRating }),
        includedInStatistics: review.includedInStatistics,
        ...(review.target === undefined ? {} : { target: review.target }),
      },
    ];
  },
  /**
   * ReviewTransitionStateAction: "If there is no State yet, the new State must be an initial State.
   * If the existing State has `transitions` set, there must be a direct transition to the new State"
   * (unless `force`); "If the new State does not have the role ReviewIncludedInStatistics, the
   * Review is not taken into account in the ratings statistics".
   */
  async transitionState(review, action, { ctx }): Promise<MessagePayload[]> {
    const force = forceFlag(action.force);
    if (!given(action.state)) throw invalidInput("'state' is required.", { field: 'state' });
    const target = await reviewState(action.state, 'state', ctx.load);
    if (!force) {
      const current = review.state === undefined ? undefined : await ctx.load<State>('state', { id: review.state.id });
      const refusal = transitionRefusal(current, review.state !== undefined, target);
      if (refusal !== undefined) throw invalidOperation(`${refusal.replace('quote request', 'review')} Use "force": true to override.`);
    }
    const [oldState, oldIncludedInStatistics] = [review.state, review.includedInStatistics];
    review.state = { typeId: 'state', id: target.id };
    review.includedInStatistics = includedThrough(target);
    return [
      {
        type: 'ReviewStateTransition',
        ...(oldState === undefined ? {} : { oldState }),
        newState: review.state,
        oldIncludedInStatistics,
        newIncludedInStatistics: review.includedInStatistics,
        ...(review.target === undefined ? {} : { target: review.target }),
        force,
      },
    ];
  },
  // The reference has no Review custom field messages: new versions only.
  ...customFieldActions<Review>(REVIEW_TYPE_ID, { messages: false }),
};

/**
 * `/{projectKey}/reviews` (reference: resources/reviews.raml, types/review). Served through
 * review-documents.ts, which keeps the targets' rating statistics and `uniquenessValue` in step.
 */
export const reviewDefinition: ResourceDefinition<Review> = {
  typeId: REVIEW_TYPE_ID,
  path: 'reviews',
  // reviews.raml securedBy: view_products / manage_products.
  scopes: { view: ['view_products'], manage: ['manage_products'] },
  fromDraft: reviewFromDraft,
  createdMessages: (review) => [{ type: 'ReviewCreated', review }],
  actions: reviewActions,
  // Deletes take `dataErasure` (reviews.raml: the dataErasure trait; reviews name their authors).
  personalData: true,
};
