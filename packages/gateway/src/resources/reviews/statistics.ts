import type { Queryable } from '@herald/store';
import { countsInStatistics, REVIEW_TYPE_ID, type Review, type ReviewTarget } from './review.js';

/** The reference's ReviewRatingStatistics (types/review/ReviewRatingStatistics.raml). */
export interface ReviewRatingStatistics {
  /** "This number is rounded with 5 decimals." */
  averageRating: number;
  highestRating: number;
  lowestRating: number;
  count: number;
  /** "The keys are the different ratings and the values are the count of reviews having this rating." */
  ratingsDistribution: Record<string, number>;
}

/** The statistics of `target` from the reviews that count, as `tx` sees them; undefined when none counts. */
async function statisticsOf(tx: Queryable, projectKey: string, target: ReviewTarget): Promise<ReviewRatingStatistics | undefined> {
  const path = `$ ? (@.includedInStatistics == true && @.target.typeId == ${JSON.stringify(target.typeId)} && @.target.id == ${JSON.stringify(target.id)})`;
  const result = await tx.query<{ rating: number; reviews: number }>(
    `SELECT (doc->>'rating')::int AS rating, count(*)::int AS reviews FROM resources
      WHERE project_key = $1 AND type_id = $2 AND doc @? $3::jsonpath AND jsonb_typeof(doc->'rating') = 'number'
      GROUP BY 1 ORDER BY 1`,
    [projectKey, REVIEW_TYPE_ID, path],
  );
  const rows = result.rows;
  const count = rows.reduce((total, row) => total + row.reviews, 0);
  if (count === 0) return undefined;
  const sum = rows.reduce((total, row) => total + row.rating * row.reviews, 0);
  return {
    averageRating: Math.round((sum / count) * 100_000) / 100_000,
    highestRating: Math.max(...rows.map((row) => row.rating)),
    lowestRating: Math.min(...rows.map((row) => row.rating)),
    count,
    ratingsDistribution: Object.fromEntries(rows.map((row) => [String(row.rating), row.reviews])),
  };
}

/**
 * Recomputes one target's statistics and stores them in the Product or Channel document. Derived
 * data, written in place: not a new version of the target, so a merchant's update of a product is
 * never refused (409) because a customer reviewed it meanwhile, and no change notification of the
 * target follows. The row is locked first, so concurrent review writes on one target take turns and
 * each counts the others' committed reviews; a write of the target itself either waits for the lock
 * or (optimistic) finds the row changed and reads it again. A deleted target has nothing to update.
 */
async function refreshTarget(tx: Queryable, projectKey: string, target: ReviewTarget): Promise<void> {
  const row = [projectKey, target.typeId, target.id];
  const locked = await tx.query('SELECT 1 FROM resources WHERE project_key = $1 AND type_id = $2 AND id = $3 FOR UPDATE', row);
  if (locked.rows.length === 0) return;
  const statistics = await statisticsOf(tx, projectKey, target);
  await tx.query(
    `UPDATE resources SET doc = CASE WHEN $4::jsonb IS NULL THEN doc - 'reviewRatingStatistics' ELSE jsonb_set(doc, '{reviewRatingStatistics}', $4::jsonb) END
      WHERE project_key = $1 AND type_id = $2 AND id = $3`,
    [...row, statistics === undefined ? null : JSON.stringify(statistics)],
  );
}

const targetKey = (target: ReviewTarget | undefined): string => (target === undefined ? '' : `${target.typeId}/${target.id}`);

/**
 * After a review write inside `tx` (`before`: the review as it was, `after`: as it is; either may
 * be absent), refreshes the statistics of every target whose numbers may have moved: the old and
 * new target when the review counted before or counts now and its rating, target or inclusion
 * changed. Targets are locked in a fixed order, so two review writes never wait on each other in a cycle.
 */
export async function refreshStatistics(tx: Queryable, projectKey: string, before?: Review, after?: Review): Promise<void> {
  if (!countsInStatistics(before) && !countsInStatistics(after)) return;
  const unchanged =
    before !== undefined &&
    after !== undefined &&
    before.rating === after.rating &&
    before.includedInStatistics === after.includedInStatistics &&
    targetKey(before.target) === targetKey(after.target);
  if (unchanged) return;
  const targets = new Map<string, ReviewTarget>();
  for (const review of [before, after]) if (review?.target !== undefined) targets.set(targetKey(review.target), review.target);
  const ordered = [...targets.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, target]) => target);
  for (const target of ordered) await refreshTarget(tx, projectKey, target);
}
