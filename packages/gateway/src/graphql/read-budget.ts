import { ApiError } from '@herald/model';

/**
 * What one GraphQL request may read while it runs, in documents. The cost check before execution
 * (query-cost.ts) cannot know how long the lists it meets are: `ancestors` nested in `ancestors`
 * grows with the depth of the hierarchy at every level, so a short query over a deep tree would
 * build an answer of millions of units. Every document a resolver asks the loaders for counts,
 * cached or not (the answer repeats it either way); past the limit every further read fails and
 * the request is answered 400 QueryComplexityExceeded (plugin.ts).
 */
export class ReadBudget {
  private spent = 0;

  constructor(readonly limit: number) {}

  get exceeded(): boolean {
    return this.spent > this.limit;
  }

  get message(): string {
    return `The query read more than ${this.limit} documents, the most one request may read. Select fewer nested lists (ancestors, stores) or split the query.`;
  }

  /** Counts one document read; throws once the budget is spent. */
  spend(): void {
    this.spent += 1;
    if (this.exceeded) throw new ApiError(400, { code: 'QueryComplexityExceeded', message: this.message });
  }
}
