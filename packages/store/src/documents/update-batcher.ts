import type { Database, QueryOptions } from '../database/types.js';
import { sqlState } from '../database/types.js';
import { eventInserts, type WriteEvents } from '../outbox/append.js';
import { concatArrays, settle } from './create-batcher.js';
import { TurnBatches } from './turn-batches.js';

/**
 * One optimistic update as the batch statement takes it: the new row, the row version it was
 * computed from, and its prepared events, besides the statement that writes it alone.
 */
export interface PreparedUpdate {
  projectKey: string;
  typeId: string;
  /** The resource's id (also in `rowJson`). */
  id: string;
  /** JSON of `{ id, key, version, expected, row_version, now, added, doc }` (`added`: its messages). */
  rowJson: string;
  events: Pick<WriteEvents, 'storedJson' | 'outboxJson' | 'storedCount' | 'outboxCount'>;
  /** Writes this update in a statement of its own; answers whether the row was still as read. */
  alone(): Promise<boolean>;
}

/** As for creates: every client of a busy pool, and one statement stays short. */
const MAX_BATCH = 64;

/**
 * Several conditional updates of one project and type in one statement. Each row is written only
 * if it is still the version its update was computed from (`version` and `xmin`, as the statement
 * of one update checks), and only the events of the rows written are inserted: the owners arrays
 * ($6, $7) name the update (its position in $3) each stored message and outbox row belongs to.
 */
const BATCH_SQL = `WITH input AS (
    SELECT r.value, r.n FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS r(value, n)),
  updated AS (
    UPDATE resources t SET key = i.value->>'key', version = (i.value->>'version')::integer,
      last_modified_at = (i.value->>'now')::timestamptz, message_seq = t.message_seq + (i.value->>'added')::integer, doc = i.value->'doc'
    FROM input i
    -- The ids again as an array ($8): the rows are found through the id index. Joined on the JSON
    -- alone, the planner guessed 100 input rows and hashed a scan of every resource of the type.
    WHERE t.project_key COLLATE "C" = $1 AND t.type_id COLLATE "C" = $2 AND t.id COLLATE "C" = ANY($8::text[])
      AND t.id COLLATE "C" = i.value->>'id'
      AND t.version = (i.value->>'expected')::integer AND t.xmin = (i.value->>'row_version')::xid
    RETURNING i.n),
  ${eventInserts({ projectKey: 1, typeId: 2, stored: 4, outbox: 5 }, { written: 'updated', storedOwners: 6, outboxOwners: 7 })}
  SELECT n::integer FROM updated`;

const WRITES_EVENTS: QueryOptions = { prepare: true, appendsOutbox: true };

interface Waiting {
  update: PreparedUpdate;
  resolve(written: boolean): void;
  reject(error: unknown): void;
}

/** For each element of the updates' event arrays, concatenated, the position (from 1) of its update. */
function owners(updates: readonly PreparedUpdate[], count: (update: PreparedUpdate) => number): number[] {
  return updates.flatMap((update, index) => new Array<number>(count(update)).fill(index + 1));
}

/**
 * Coalesces concurrent optimistic updates of one project and type into one statement (issue 30),
 * as CreateBatcher does for creates: one round trip, one commit and WAL flush for the updates asked
 * for during one event-loop turn. Each update answers whether its row was written (false: another
 * write committed since it was read, which the caller answers as it does for an update alone), and
 * only after the statement that wrote it committed.
 *
 * A batch refused by a constraint (class 23: a key another resource holds) or aborted for a
 * concurrent write (class 40: a deadlock with another process's batch, which locks its rows in
 * another order) wrote nothing: each update is then written alone, in the order asked for. Any
 * other failure fails the whole batch.
 */
export class UpdateBatcher {
  private readonly batches = new TurnBatches<Waiting>((_projectKey, _typeId, batch) => void this.issue(batch), MAX_BATCH);

  constructor(private readonly db: Database) {}

  write(update: PreparedUpdate): Promise<boolean> {
    return new Promise((resolve, reject) => this.batches.add(update.projectKey, update.typeId, { update, resolve, reject }));
  }

  private async issue(batch: Waiting[]): Promise<void> {
    if (batch.length === 1) return settle(batch[0]!, batch[0]!.update.alone());
    const updates = batch.map((waiting) => waiting.update);
    let written: Set<number>;
    try {
      const result = await this.db.query<{ n: number }>(
        BATCH_SQL,
        [
          updates[0]!.projectKey,
          updates[0]!.typeId,
          `[${updates.map((update) => update.rowJson).join(',')}]`,
          concatArrays(updates.map((update) => update.events.storedJson)),
          concatArrays(updates.map((update) => update.events.outboxJson)),
          owners(updates, (update) => update.events.storedCount),
          owners(updates, (update) => update.events.outboxCount),
          updates.map((update) => update.id),
        ],
        WRITES_EVENTS,
      );
      written = new Set(result.rows.map((row) => row.n));
    } catch (error) {
      const state = sqlState(error) ?? '';
      if (state.startsWith('23') || state.startsWith('40')) {
        for (const waiting of batch) await settle(waiting, waiting.update.alone());
      } else batch.forEach((waiting) => waiting.reject(error));
      return;
    }
    batch.forEach((waiting, index) => waiting.resolve(written.has(index + 1)));
  }
}
