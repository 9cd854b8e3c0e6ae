import type { BaseResource, CustomFields, Reference } from '@herald/model';

export const REVIEW_TYPE_ID = 'review';

/** Review.target: "Can be a Product or a Channel". */
export type ReviewTarget = Reference<'product'> | Reference<'channel'>;
export const TARGET_TYPE_IDS = ['product', 'channel'] as const;

/** Review.rating: int8 from -100 to 100. */
export const MIN_RATING = -100;
export const MAX_RATING = 100;

/** The reference's Review (types/review/Review.raml). */
export interface Review extends BaseResource {
  key?: string;
  uniquenessValue?: string;
  locale?: string;
  authorName?: string;
  title?: string;
  text?: string;
  target?: ReviewTarget;
  /**
   * "A Review is per default used in the statistics, unless the Review is in a state that does not
   * have the role ReviewIncludedInStatistics"; decided when the state is set, kept when the State's
   * roles change later ("the calculation is not updated").
   */
  includedInStatistics: boolean;
  rating?: number;
  state?: Reference<'state'>;
  customer?: Reference<'customer'>;
  custom?: CustomFields;
}

/** Whether `review` counts in its target's ReviewRatingStatistics: included, rated and targeted. */
export function countsInStatistics(review: Pick<Review, 'includedInStatistics' | 'rating' | 'target'> | undefined): boolean {
  return review !== undefined && review.includedInStatistics && review.rating !== undefined && review.target !== undefined;
}
