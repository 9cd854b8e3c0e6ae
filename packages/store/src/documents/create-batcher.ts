import type { Database, QueryOptions } from '../database/types.js';
import { sqlState } from '../database/types.js';
import { eventInserts } from '../outbox/append.js';
import { TurnBatches } from './turn-batches.js';

/**
 * One create as the batch statement takes it: the resource row, and its stored messages and outbox
 * rows as JSON arrays (outbox/append.ts prepareEvents), besides the statement that writes it alone.
 */
export interface PreparedCreate {
  projectKey: string;
  typeId: string;
  /** JSON of `{ id, key, now, message_seq, doc }`. */
  rowJson: string;
  storedJson: string;
  outboxJson: string;
  /** Writes this create in a statement of its own (a batch of one, or after a batch was refused). */
  alone(): Promise<void>;
}

/** Large enough for every client of a busy pool, small enough to keep one statement short. */
const MAX_BATCH = 64;

/** Several creates of one project and type: their rows, messages and outbox rows in one statement. */
const BATCH_SQL = `WITH created AS (
    INSERT INTO resources (project_key, type_id, id, key, version, created_at, last_modified_at, message_seq, doc)
    SELECT $1, $2, r.value->>'id', r.value->>'key', 1, (r.value->>'now')::timestamptz, (r.value->>'now')::timestamptz,
      (r.value->>'message_seq')::integer, r.value->'doc'
    FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS r(value, n) ORDER BY r.n RETURNING 1),
  ${eventInserts({ projectKey: 1, typeId: 2, stored: 4, outbox: 5 })}
  SELECT 1`;

const WRITES_EVENTS: QueryOptions = { prepare: true, appendsOutbox: true };

/** A JSON array of the elements of several JSON arrays, in their order. */
export function concatArrays(arrays: readonly string[]): string {
  return `[${arrays
    .filter((array) => array !== '[]')
    .map((array) => array.slice(1, -1))
    .join(',')}]`;
}

interface Waiting {
  create: PreparedCreate;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Coalesces concurrent creates of one project and type into one statement (issue 30), as
 * reads/by-id-batcher.ts does for reads: under load each create was its own round trip, its own
 * commit and WAL flush, and its own socket write, which on this machine's loopback cost more than
 * Herald's own code. Creates asked for during one turn of the event loop are written together on
 * the next; each is acknowledged only after the statement that wrote it committed.
 *
 * A statement is all or nothing. When a batch is refused by a constraint (a key another create
 * holds, in the database or in the same batch), each of its creates is written alone, in order, so
 * that each gets its own answer; any other failure (the database unreachable) fails the whole batch,
 * whose outcome it does not know either way.
 */
export class CreateBatcher {
  private readonly batches = new TurnBatches<Waiting>((_projectKey, _typeId, batch) => void this.issue(batch), MAX_BATCH);

  constructor(private readonly db: Database) {}

  write(create: PreparedCreate): Promise<void> {
    return new Promise((resolve, reject) => this.batches.add(create.projectKey, create.typeId, { create, resolve, reject }));
  }

  private async issue(batch: Waiting[]): Promise<void> {
    if (batch.length === 1) return settle(batch[0]!, batch[0]!.create.alone());
    const first = batch[0]!.create;
    const creates = batch.map((waiting) => waiting.create);
    try {
      await this.db.query(
        BATCH_SQL,
        [
          first.projectKey,
          first.typeId,
          `[${creates.map((create) => create.rowJson).join(',')}]`,
          concatArrays(creates.map((create) => create.storedJson)),
          concatArrays(creates.map((create) => create.outboxJson)),
        ],
        WRITES_EVENTS,
      );
    } catch (error) {
      // Class 23, integrity constraint violation: nothing was written. Each create on its own, in
      // the order they were asked for, so that of two creates of one key the first one wins.
      if (sqlState(error)?.startsWith('23') === true) {
        for (const waiting of batch) await settle(waiting, waiting.create.alone());
      } else {
        batch.forEach((waiting) => waiting.reject(error));
      }
      return;
    }
    batch.forEach((waiting) => waiting.resolve());
  }
}

/** Answers a batched caller with the outcome of its write made alone. */
export async function settle<T>(waiting: { resolve(value: T): void; reject(error: unknown): void }, written: Promise<T>): Promise<void> {
  try {
    waiting.resolve(await written);
  } catch (error) {
    waiting.reject(error);
  }
}
