import type { Clock } from '@herald/model';
import type { Project, Queryable } from '@herald/store';
import type { FastifyInstance } from 'fastify';
import { expiryCutoff } from './retention.js';

/**
 * Deletes the messages that outlived their project's `deleteDaysAfterCreation`. One DELETE per
 * project, on the (project_key, created_at) index. Safe to run from several gateway instances at
 * once: each statement only removes rows that are expired anyway. Returns how many were deleted.
 */
export async function cleanupExpiredMessages(db: Queryable, clock: Clock): Promise<number> {
  const projects = await db.query<{ key: string; messages: Project['messages'] }>(
    "SELECT key, doc -> 'messages' AS messages FROM projects",
  );
  let deleted = 0;
  for (const project of projects.rows) {
    const result = await db.query('DELETE FROM messages WHERE project_key = $1 AND created_at < $2::timestamptz', [
      project.key,
      expiryCutoff(project, clock).toISOString(),
    ]);
    deleted += result.rowCount;
  }
  return deleted;
}

export const CLEANUP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Runs the cleanup once after start and then every `intervalMs` for as long as the app runs.
 * The Messages API already hides expired messages, so the cadence only bounds the table's size.
 */
export function scheduleMessageCleanup(app: FastifyInstance, db: Queryable, clock: Clock, intervalMs = CLEANUP_INTERVAL_MS): void {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const run = (): void => {
    running = running
      .then(() => cleanupExpiredMessages(db, clock))
      .then(
        (deleted) => {
          if (deleted > 0) app.log.info({ deleted }, 'expired messages deleted');
        },
        (error: unknown) => app.log.error({ err: error }, 'message cleanup failed'),
      );
  };
  app.addHook('onReady', async () => {
    run();
    timer = setInterval(run, intervalMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    // Never leave a DELETE running against a database that is about to be closed.
    await running;
  });
}
