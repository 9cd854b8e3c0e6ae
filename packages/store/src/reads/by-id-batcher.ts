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

interface Batch<V> {
  projectKey: string;
  typeId: string;
  waiters: Array<Waiter<V>>;
}

export class ByIdBatcher<V> {
  private readonly open = new Map<string, Batch<V>>();
  private flushScheduled = false;

  constructor(
    private readonly load: LoadByIds<V>,
    private readonly maxBatch: number = DEFAULT_MAX_BATCH,
  ) {
    if (!Number.isInteger(maxBatch) || maxBatch < 1) throw new RangeError(`maxBatch must be a positive integer (got ${maxBatch})`);
  }

  /** The document `id` of `projectKey` and `typeId`, or undefined when there is none. */
  read(projectKey: string, typeId: string, id: string): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      const batch = this.batchOf(projectKey, typeId);
      batch.waiters.push({ id, resolve, reject });
      if (batch.waiters.length >= this.maxBatch) this.issue(this.close(batch));
      else this.scheduleFlush();
    });
  }

  private batchOf(projectKey: string, typeId: string): Batch<V> {
    // JSON keeps the pair unambiguous whatever characters the two hold.
    const group = JSON.stringify([projectKey, typeId]);
    let batch = this.open.get(group);
    if (batch === undefined) {
      batch = { projectKey, typeId, waiters: [] };
      this.open.set(group, batch);
    }
    return batch;
  }

  private close(batch: Batch<V>): Batch<V> {
    this.open.delete(JSON.stringify([batch.projectKey, batch.typeId]));
    return batch;
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      const batches = [...this.open.values()];
      this.open.clear();
      for (const batch of batches) this.issue(batch);
    });
  }

  private issue(batch: Batch<V>): void {
    const ids = [...new Set(batch.waiters.map((waiter) => waiter.id))];
    this.load(batch.projectKey, batch.typeId, ids).then(
      (found) => {
        // Each reader gets a document of its own: callers change what they read (expansion writes
        // `obj` into references, responses hide fields), and two requests for one id must not see
        // each other's changes (one may expand what the other's token may not view).
        const handedOut = new Set<string>();
        for (const waiter of batch.waiters) {
          const doc = found.get(waiter.id);
          waiter.resolve(doc !== undefined && handedOut.has(waiter.id) ? structuredClone(doc) : doc);
          handedOut.add(waiter.id);
        }
      },
      (error: unknown) => batch.waiters.forEach((waiter) => waiter.reject(error)),
    );
  }
}
