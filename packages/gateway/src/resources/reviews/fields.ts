import { duplicateField, invalidInput } from '@herald/model';
import type { Queryable } from '@herald/store';
import { workflowState } from '../quotes/workflow.js';
import { identifierLocator, loadReferenced, type Load } from '../shared/references.js';
import { LANGUAGE_TAG, optionalString } from '../shared/validation.js';
import type { State } from '../states/state.js';
import { MAX_RATING, MIN_RATING, REVIEW_TYPE_ID, TARGET_TYPE_IDS, type Review, type ReviewTarget } from './review.js';

/** Free texts of a Review (authorName, title, text, uniquenessValue). */
const MAX_TEXT = 65_536;

export function optionalText(value: unknown, field: string): string | undefined {
  return optionalString(value, field, MAX_TEXT);
}

/** ReviewDraft.rating / setRating: "format: int8, minimum: -100, maximum: 100". */
export function optionalRating(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < MIN_RATING || value > MAX_RATING) {
    throw invalidInput(`'rating' must be an integer from ${MIN_RATING} to ${MAX_RATING}.`, { field: 'rating', invalidValue: value });
  }
  return value;
}

/** Review.locale: a Locale (IETF language tag). */
export function optionalLocale(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !LANGUAGE_TAG.test(value))
    throw invalidInput("'locale' must be an IETF language tag.", { field: 'locale', invalidValue: value });
  return value;
}

/** ReviewDraft.target: "ProductResourceIdentifier | ChannelResourceIdentifier", told apart by `typeId`. */
export async function reviewTarget(value: unknown, load: Load): Promise<ReviewTarget> {
  const typeId = (value as { typeId?: unknown } | null)?.typeId;
  if (typeof value !== 'object' || value === null || !(TARGET_TYPE_IDS as readonly unknown[]).includes(typeId)) {
    throw invalidInput("'target' must be a ResourceIdentifier with 'typeId' product or channel.", { field: 'target' });
  }
  const targetTypeId = typeId as ReviewTarget['typeId'];
  const target = await loadReferenced(load, targetTypeId, identifierLocator(value, 'target', targetTypeId));
  return { typeId: targetTypeId, id: target.id } as ReviewTarget;
}

/** A Review's `state` must be a ReviewState; the role decides `includedInStatistics`. */
export async function reviewState(value: unknown, field: string, load: Load): Promise<State> {
  return workflowState(load, value, field, 'ReviewState');
}

export function includedThrough(state: State | undefined): boolean {
  return state === undefined || state.roles.includes('ReviewIncludedInStatistics');
}

export async function customerOf(value: unknown, load: Load): Promise<Review['customer']> {
  const customer = await loadReferenced(load, 'customer', identifierLocator(value, 'customer', 'customer'));
  return { typeId: 'customer', id: customer.id };
}

/**
 * ReviewDraft.uniquenessValue: "If set, this value must be unique among Reviews" (400
 * DuplicateField). Checked inside the write's transaction (review-documents.ts).
 */
export async function assertUniquenessValueFree(db: Queryable, projectKey: string, review: Pick<Review, 'id' | 'uniquenessValue'>): Promise<void> {
  if (review.uniquenessValue === undefined) return;
  const found = await db.query<{ id: string }>(
    'SELECT id FROM resources WHERE project_key = $1 AND type_id = $2 AND id <> $3 AND doc @? $4::jsonpath LIMIT 1',
    [projectKey, REVIEW_TYPE_ID, review.id, `$ ? (@.uniquenessValue == ${JSON.stringify(review.uniquenessValue)})`],
  );
  if (found.rows.length > 0) throw duplicateField('uniquenessValue', review.uniquenessValue);
}
