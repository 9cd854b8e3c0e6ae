import type { BaseResource } from '@herald/model';
import type { DocumentStore, Queryable, WriteContext } from '@herald/store';
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

/** A Product or Channel: both carry `reviewRatingStatistics` (Product.raml, Channel.raml). */
type Rated = BaseResource & { reviewRatingStatistics?: ReviewRatingStatistics };

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
 * Recomputes one target's statistics and writes them as a new version of the Product or Channel
 * (its ResourceUpdated notification tells subscribers), unless they did not change. The row is
 * locked first, so concurrent review writes on one target take turns and each counts the others'
 * committed reviews. A target deleted meanwhile has nothing to update.
 */
async function refreshTarget(documents: DocumentStore, tx: Queryable, ctx: WriteContext, target: ReviewTarget): Promise<void> {
  const locked = await tx.query<{ version: number }>('SELECT version FROM resources WHERE project_key = $1 AND type_id = $2 AND id = $3 FOR UPDATE', [
    ctx.projectKey,
    target.typeId,
    target.id,
  ]);
  const version = locked.rows[0]?.version;
  if (version === undefined) return;
  const statistics = await statisticsOf(tx, ctx.projectKey, target);
  await documents.within(tx).update<Rated>(ctx, target.typeId, { id: target.id }, version, (rated) => {
    if (statistics === undefined) delete rated.reviewRatingStatistics;
    else rated.reviewRatingStatistics = statistics;
    return { doc: rated };
  });
}

const targetKey = (target: ReviewTarget | undefined): string => (target === undefined ? '' : `${target.typeId}/${target.id}`);

/**
 * After a review write inside `tx` (`before`: the review as it was, `after`: as it is; either may
 * be absent), refreshes the statistics of every target whose numbers may have moved: the old and
 * new target when the review counted before or counts now and its rating, target or inclusion
 * changed. Targets are locked in a fixed order, so two review writes never wait on each other in a cycle.
 */
export async function refreshStatistics(documents: DocumentStore, tx: Queryable, ctx: WriteContext, before?: Review, after?: Review): Promise<void> {
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
  for (const target of ordered) await refreshTarget(documents, tx, ctx, target);
}
