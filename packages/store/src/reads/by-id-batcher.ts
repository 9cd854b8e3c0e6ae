import { TurnBatches } from '../documents/turn-batches.js';

/**
 * Coalesces concurrent reads by id of one project and type into one statement (issue 30): under
 * load each GET by id was its own round trip to PostgreSQL, and the pool's connections queued.
 *
 * Reads asked for during one turn of the event loop are sent together on the next (setImmediate),
 * one statement per project and type, at most `maxBatch` ids each. While `maxInFlight` statements
 * of a project and type are running, the reads asked for meanwhile wait for one of them to finish
 * and then go out together: each statement wakes a PostgreSQL backend, and on a busy host those
 * wake-ups (two context switches and two loopback writes per statement), not the lookups, were
 * what a GET cost; fewer, fuller statements answer more reads per wake-up.
 *
 * Nothing is cached: a statement is only ever issued after every read it answers was asked for, so
 * a read that starts after a write was acknowledged sees that write (read-after-write, spec §9.2).
 * A failed statement fails only the reads of its own batch.
 */

/** Loads the documents of `ids` (one project and type); ids without a document are absent. */
export type LoadByIds<V> = (projectKey: string, typeId: string, ids: readonly string[]) => Promise<ReadonlyMap<string, V>>;

/** Large enough to absorb every client of a busy pool in one statement, small enough to stay one short probe per id. */
export const DEFAULT_MAX_BATCH = 128;

/** Statements of one project and type running at once: two keep PostgreSQL and the gateway both busy. */
export const DEFAULT_MAX_IN_FLIGHT = 2;

interface Waiter<V> {
  id: string;
  resolve(value: V | undefined): void;
  reject(error: unknown): void;
}

export class ByIdBatcher<V> {
  private readonly batches: TurnBatches<Waiter<V>>;
  /** Statements running, per project and type. */
  private readonly inFlight = new Map<string, number>();
  /** Reads held back while their project and type had `maxInFlight` statements running. */
  private readonly held = new Map<string, Array<Waiter<V>>>();

  constructor(
    private readonly load: LoadByIds<V>,
    maxBatch: number = DEFAULT_MAX_BATCH,
    private readonly maxInFlight: number = DEFAULT_MAX_IN_FLIGHT,
  ) {
    if (!Number.isInteger(maxInFlight) || maxInFlight < 1) throw new RangeError(`maxInFlight must be a positive integer (got ${maxInFlight})`);
    this.batches = new TurnBatches((projectKey, typeId, waiters) => this.issue(projectKey, typeId, waiters), maxBatch);
  }

  /** The document `id` of `projectKey` and `typeId`, or undefined when there is none. */
  read(projectKey: string, typeId: string, id: string): Promise<V | undefined> {
    return new Promise((resolve, reject) => this.batches.add(projectKey, typeId, { id, resolve, reject }));
  }

  private issue(projectKey: string, typeId: string, waiters: Array<Waiter<V>>): void {
    // JSON keeps the pair unambiguous whatever characters the two hold.
    const group = JSON.stringify([projectKey, typeId]);
    const running = this.inFlight.get(group) ?? 0;
    if (running >= this.maxInFlight) {
      const held = this.held.get(group);
      if (held === undefined) this.held.set(group, waiters);
      else held.push(...waiters);
      return;
    }
    this.inFlight.set(group, running + 1);
    const ids = [...new Set(waiters.map((waiter) => waiter.id))];
    this.load(projectKey, typeId, ids)
      .then(
        (found) => deliver(waiters, found),
        (error: unknown) => waiters.forEach((waiter) => waiter.reject(error)),
      )
      .finally(() => this.finished(projectKey, typeId, group));
  }

  /** A statement ended: the reads held back join those of the current turn in the next one. */
  private finished(projectKey: string, typeId: string, group: string): void {
    const running = (this.inFlight.get(group) ?? 1) - 1;
    if (running === 0) this.inFlight.delete(group);
    else this.inFlight.set(group, running);
    const held = this.held.get(group);
    if (held === undefined) return;
    this.held.delete(group);
    for (const waiter of held) this.batches.add(projectKey, typeId, waiter);
  }
}

function deliver<V>(waiters: ReadonlyArray<Waiter<V>>, found: ReadonlyMap<string, V>): void {
  // Each reader gets a document of its own: callers change what they read (expansion writes
  // `obj` into references, responses hide fields), and two requests for one id must not see
  // each other's changes (one may expand what the other's token may not view).
  const handedOut = new Set<string>();
  for (const waiter of waiters) {
    const doc = found.get(waiter.id);
    waiter.resolve(doc !== undefined && handedOut.has(waiter.id) ? structuredClone(doc) : doc);
    handedOut.add(waiter.id);
  }
}
