import { invalidInput, type Clock } from '@herald/model';
import type { DocumentStore, Project } from '@herald/store';
import type { FastifyInstance } from 'fastify';
import type { ProjectActions } from '../projects/routes.js';
import { scheduleCleanup } from '../shared/cleanup-schedule.js';
import { asDraft } from '../shared/validation.js';
import type { Cart } from './cart.js';

/*
 * §8 Automatic cleanup: a cart not modified for `deleteDaysAfterLastModification` days is deleted
 * (any modification starts the count again). Each cart carries its own value, set from its draft or
 * the project's `carts.deleteDaysAfterLastModification` (default 90) when created; changing the
 * project's value later leaves existing carts as they are. Carts created before carts had a value
 * are kept until one is set (`setDeleteDaysAfterLastModification`).
 */

const DEFAULT_CART_DELETE_DAYS = 90;
const MIN_DAYS = 1;
/** A thousand years: the API takes any positive number of days, but it must stay a valid date. */
const MAX_DAYS = 365_250;

/** The project's default for new carts (projects created before the setting existed: 90). */
function projectCartDeleteDays(project: Pick<Project, 'carts'>): number {
  const days: unknown = project.carts?.deleteDaysAfterLastModification;
  return typeof days === 'number' && Number.isInteger(days) ? days : DEFAULT_CART_DELETE_DAYS;
}

/** A draft's or action's `deleteDaysAfterLastModification`; absent → the project's default. */
export function cartDeleteDays(value: unknown, field: string, project: Pick<Project, 'carts'>): number {
  if (value === undefined || value === null) return projectCartDeleteDays(project);
  if (typeof value !== 'number' || !Number.isInteger(value) || value < MIN_DAYS || value > MAX_DAYS) {
    throw invalidInput(`'${field}' must be an integer from ${MIN_DAYS} to ${MAX_DAYS} (days).`, { field, invalidValue: value });
  }
  return value;
}

/** The project action `changeCartsConfiguration {cartsConfiguration: {deleteDaysAfterLastModification}}`. */
export const cartsProjectActions: ProjectActions = {
  changeCartsConfiguration(project, action) {
    const configuration = asDraft(action.cartsConfiguration ?? {}, 'cartsConfiguration');
    const days = configuration.deleteDaysAfterLastModification ?? DEFAULT_CART_DELETE_DAYS;
    // Other CartsConfiguration fields (rounding modes, tax rate fallback) have their own project actions: kept.
    project.carts = { ...project.carts, deleteDaysAfterLastModification: cartDeleteDays(days, 'cartsConfiguration.deleteDaysAfterLastModification', project) };
  },
};

/** Carts looked at per statement: a project with many expired carts is worked off in rounds. */
const CLEANUP_BATCH = 500;

/**
 * Deletes the carts whose retention has run out, through the document store: each deletion is
 * versioned and sends its ResourceDeleted change notification, like a delete through the API. A
 * cart modified meanwhile is left alone (its version moved: the delete answers 409, and its count
 * started again). Safe from several gateways at once. Stops between two deletes once `signal` is
 * aborted (shutdown: the next run goes on). Returns how many carts were deleted.
 */
export async function deleteExpiredCarts(documents: DocumentStore, clock: Clock, signal?: AbortSignal): Promise<number> {
  const now = clock.now().toISOString();
  const projects = await documents.db.query<{ key: string }>('SELECT key FROM projects ORDER BY key');
  let deleted = 0;
  for (const { key } of projects.rows) {
    let after = { lastModifiedAt: '-infinity', id: '' };
    for (;;) {
      // Oldest first on the (project, type, last_modified_at, id) index, from where the last page
      // ended: each run walks every cart not modified within a day once. Days are 24 hours,
      // whatever the session's time zone. A cart without its own value (created before carts had
      // one, or a value no API path writes) is kept: its retention was never set, and an upgrade
      // must not delete old carts at its first start; setDeleteDaysAfterLastModification sets one.
      const page = await documents.db.query<{ id: string; version: number; last_modified_at: string }>(
        `SELECT id, version, last_modified_at::text FROM resources
         WHERE project_key = $1 AND type_id = 'cart' AND last_modified_at < $2::timestamptz - interval '24 hours'
           AND (last_modified_at, id) > ($4::timestamptz, $5)
           AND doc->>'deleteDaysAfterLastModification' ~ '^[0-9]{1,6}$'
           AND last_modified_at + (doc->>'deleteDaysAfterLastModification')::int * interval '24 hours' < $2::timestamptz
         ORDER BY last_modified_at, id LIMIT $3`,
        [key, now, CLEANUP_BATCH, after.lastModifiedAt, after.id],
      );
      for (const cart of page.rows) {
        if (signal?.aborted === true) return deleted;
        try {
          await documents.delete<Cart>({ projectKey: key }, 'cart', { id: cart.id }, cart.version);
          deleted++;
        } catch (error) {
          // Modified or deleted since it was read: no longer expired, or gone already.
          if (!isConflictOrGone(error)) throw error;
        }
      }
      const last = page.rows[page.rows.length - 1];
      if (last === undefined || page.rows.length < CLEANUP_BATCH) break;
      after = { lastModifiedAt: last.last_modified_at, id: last.id };
    }
  }
  return deleted;
}

function isConflictOrGone(error: unknown): boolean {
  const status = (error as { statusCode?: unknown }).statusCode;
  return status === 409 || status === 404;
}

/** Deletes expired carts after start and then hourly (a cart outlives its retention by up to an hour). */
export function scheduleCartCleanup(app: FastifyInstance, documents: DocumentStore, clock: Clock): void {
  scheduleCleanup(app, 'carts', (signal) => deleteExpiredCarts(documents, clock, signal));
}
