import type { Clock } from '@herald/model';
import type { Project, Queryable } from '@herald/store';
import type { FastifyInstance } from 'fastify';
import { scheduleCleanup } from '../shared/cleanup-schedule.js';
import { expiryCutoff } from './retention.js';

/**
 * Deletes the messages that outlived their project's `deleteDaysAfterCreation`. One DELETE per
 * project, on the (project_key, created_at) index. Safe to run from several gateway instances at
 * once: each statement only removes rows that are expired anyway. Returns how many were deleted.
 */
export async function cleanupExpiredMessages(db: Queryable, clock: Clock): Promise<number> {
  const projects = await db.query<{ key: string; messages: Project['messages'] }>("SELECT key, doc -> 'messages' AS messages FROM projects");
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

/**
 * Runs the cleanup after start and then hourly. The Messages API already hides expired messages,
 * so the cadence only bounds the table's size.
 */
export function scheduleMessageCleanup(app: FastifyInstance, db: Queryable, clock: Clock): void {
  scheduleCleanup(app, 'messages', () => cleanupExpiredMessages(db, clock));
}
