import { TurnBatches } from '../documents/turn-batches.js';

/**
 * Coalesces concurrent reads by id of one project and type into one statement (issue 30): under
 * load each GET by id was its own round trip to PostgreSQL, and the pool's connections queued.
 *
 * Reads asked for during one turn of the event loop are sent together on the next (setImmediate),
 * one statement per project and type, at most `maxBatch` ids each. Nothing is cached: a statement
 * is only ever issued after every read it answers was asked for, so a read that starts after a write
 * was acknowledged sees that write (read-after-write, spec §9.2). A failed statement fails only the
 * reads of its own batch.
 */

/** Loads the documents of `ids` (one project and type); ids without a document are absent. */
export type LoadByIds<V> = (projectKey: string, typeId: string, ids: readonly string[]) => Promise<ReadonlyMap<string, V>>;

/** Large enough to absorb every client of a busy pool in one statement, small enough to stay one short probe per id. */
export const DEFAULT_MAX_BATCH = 128;

interface Waiter<V> {
  id: string;
  resolve(value: V | undefined): void;
  reject(error: unknown): void;
}

export class ByIdBatcher<V> {
  private readonly batches: TurnBatches<Waiter<V>>;

  constructor(
    private readonly load: LoadByIds<V>,
    maxBatch: number = DEFAULT_MAX_BATCH,
  ) {
    this.batches = new TurnBatches((projectKey, typeId, waiters) => this.issue(projectKey, typeId, waiters), maxBatch);
  }

  /** The document `id` of `projectKey` and `typeId`, or undefined when there is none. */
  read(projectKey: string, typeId: string, id: string): Promise<V | undefined> {
    return new Promise((resolve, reject) => this.batches.add(projectKey, typeId, { id, resolve, reject }));
  }

  private issue(projectKey: string, typeId: string, waiters: Array<Waiter<V>>): void {
    const ids = [...new Set(waiters.map((waiter) => waiter.id))];
    this.load(projectKey, typeId, ids).then(
      (found) => {
        // Each reader gets a document of its own: callers change what they read (expansion writes
        // `obj` into references, responses hide fields), and two requests for one id must not see
        // each other's changes (one may expand what the other's token may not view).
        const handedOut = new Set<string>();
        for (const waiter of waiters) {
          const doc = found.get(waiter.id);
          waiter.resolve(doc !== undefined && handedOut.has(waiter.id) ? structuredClone(doc) : doc);
          handedOut.add(waiter.id);
        }
      },
      (error: unknown) => waiters.forEach((waiter) => waiter.reject(error)),
    );
  }
}
