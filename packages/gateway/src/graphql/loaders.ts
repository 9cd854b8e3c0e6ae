import type { BaseResource } from '@herald/model';
import type { DocumentStore } from '@herald/store';
import type { ReadBudget } from './read-budget.js';

interface Deferred<V> {
  resolve(value: V): void;
  reject(error: unknown): void;
}

/**
 * Loads documents by key or id for one GraphQL request: every key asked for while a level of the
 * query resolves is fetched in one batch, and each at most once per request (so `topLevelUnit`
 * of 500 listed units is one query, not 500). Writes make the cache stale: the Mutation resolvers
 * clear it after each field (resolvers/index.ts). Every load, cached or not, spends one document
 * of the request's read budget.
 */
export class BatchLoader<V> {
  private readonly cache = new Map<string, Promise<V | undefined>>();
  private pending = new Map<string, Deferred<V | undefined>>();

  constructor(
    private readonly fetch: (keys: readonly string[]) => Promise<ReadonlyMap<string, V>>,
    private readonly budget: ReadBudget,
  ) {}

  load(key: string): Promise<V | undefined> {
    this.budget.spend();
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    const promise = new Promise<V | undefined>((resolve, reject) => {
      if (this.pending.size === 0) this.scheduleFlush();
      this.pending.set(key, { resolve, reject });
    });
    this.cache.set(key, promise);
    return promise;
  }

  /**
   * Forgets every document loaded so far. A batch already in flight still answers its callers;
   * later loads read again.
   */
  clear(): void {
    this.cache.clear();
  }

  /** A document the request already has (a query's results) needs no second read. */
  prime(key: string, value: V): void {
    if (!this.cache.has(key)) this.cache.set(key, Promise.resolve(value));
  }

  /** After the promise jobs of the current level ran: the moment graphql-js asked for all siblings. */
  private scheduleFlush(): void {
    void Promise.resolve().then(() => process.nextTick(() => void this.flush()));
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    try {
      const found = await this.fetch([...batch.keys()]);
      for (const [key, deferred] of batch) deferred.resolve(found.get(key));
    } catch (error) {
      for (const [key, deferred] of batch) {
        this.cache.delete(key);
        deferred.reject(error);
      }
    }
  }
}

const KEYS_PER_QUERY = 500;

/** Documents of one type by key, through the query predicates (`key in :keys`), 500 per query. */
export function byKey<D extends BaseResource>(documents: DocumentStore, projectKey: string, typeId: string) {
  return async (keys: readonly string[]): Promise<ReadonlyMap<string, D>> => {
    const found = new Map<string, D>();
    for (let start = 0; start < keys.length; start += KEYS_PER_QUERY) {
      const chunk = keys.slice(start, start + KEYS_PER_QUERY);
      const page = await documents.query<D>(projectKey, typeId, {
        where: ['key in :keys'],
        vars: { keys: chunk },
        limit: KEYS_PER_QUERY,
        withTotal: false,
      });
      for (const doc of page.results) if (doc.key !== undefined) found.set(doc.key, doc);
    }
    return found;
  };
}

export function byId<D extends BaseResource>(documents: DocumentStore, projectKey: string, typeId: string) {
  return (ids: readonly string[]): Promise<ReadonlyMap<string, D>> => documents.getMany<D>(projectKey, typeId, ids);
}
