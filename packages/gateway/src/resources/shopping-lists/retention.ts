import type { Clock } from '@herald/model';
import type { DocumentStore } from '@herald/store';
import type { FastifyInstance } from 'fastify';
import { scheduleCleanup } from '../shared/cleanup-schedule.js';
import { SHOPPING_LIST_TYPE_ID } from './shopping-list.js';

/*
 * Spec §8 Automatic cleanup: "carts and shopping lists … can be deleted automatically … by a
 * configurable number of days, resettable on modification, with a project default overridable per
 * resource". Each list carries its `deleteDaysAfterLastModification` (fields.ts `deleteDays`).
 *
 * The sweep is written for any type id whose documents carry that field: carts' retention.ts does
 * the same for `cart` and could call it once it lives in resources/shared/.
 */

/** Documents looked at per statement: many expired lists are worked off in rounds. */
const BATCH = 500;

interface Expired {
  id: string;
  version: number;
  last_modified_at: string;
}

/**
 * One page of the project's expired documents of `typeId`, oldest first from `after` (the
 * (project, type, last_modified_at, id) index). Days are 24 hours whatever the session's zone; a
 * document without a numeric value is never expired by this sweep.
 */
async function expiredPage(documents: DocumentStore, projectKey: string, typeId: string, now: string, after: Expired | undefined): Promise<Expired[]> {
  const result = await documents.db.query<Expired>(
    `SELECT id, version, last_modified_at::text FROM resources
      WHERE project_key = $1 AND type_id = $2 AND (last_modified_at, id) > ($4::timestamptz, $5)
        AND doc->>'deleteDaysAfterLastModification' ~ '^[0-9]{1,6}$'
        AND last_modified_at + (doc->>'deleteDaysAfterLastModification')::int * interval '24 hours' < $3::timestamptz
      ORDER BY last_modified_at, id LIMIT ${BATCH}`,
    [projectKey, typeId, now, after?.last_modified_at ?? '-infinity', after?.id ?? ''],
  );
  return result.rows;
}

/** A delete that lost to a modification (409) or another delete (404): the document is not expired any more. */
function lostRace(error: unknown): boolean {
  const status = (error as { statusCode?: unknown }).statusCode;
  return status === 409 || status === 404;
}

/**
 * Deletes the expired documents of `typeId` through the document store at the version read, so
 * each delete sends its ResourceDeleted like one through the API and a document modified meanwhile
 * stays. Stops between two deletes once `signal` is aborted. Returns how many were deleted.
 */
export async function deleteExpired(documents: DocumentStore, clock: Clock, typeId: string, signal?: AbortSignal): Promise<number> {
  const now = clock.now().toISOString();
  const projects = await documents.db.query<{ key: string }>('SELECT key FROM projects ORDER BY key');
  let deleted = 0;
  for (const { key } of projects.rows) {
    let after: Expired | undefined;
    do {
      const page = await expiredPage(documents, key, typeId, now, after);
      for (const doc of page) {
        if (signal?.aborted === true) return deleted;
        deleted += await documents.delete({ projectKey: key }, typeId, { id: doc.id }, doc.version).then(
          () => 1,
          (error: unknown) => {
            if (lostRace(error)) return 0;
            throw error;
          },
        );
      }
      after = page.length === BATCH ? page[page.length - 1] : undefined;
    } while (after !== undefined);
  }
  return deleted;
}

export function deleteExpiredShoppingLists(documents: DocumentStore, clock: Clock, signal?: AbortSignal): Promise<number> {
  return deleteExpired(documents, clock, SHOPPING_LIST_TYPE_ID, signal);
}

/** Runs the sweep after start and then hourly (a list outlives its retention by up to an hour). */
export function scheduleShoppingListCleanup(app: FastifyInstance, documents: DocumentStore, clock: Clock): void {
  scheduleCleanup(app, 'shopping lists', (signal) => deleteExpiredShoppingLists(documents, clock, signal));
}
