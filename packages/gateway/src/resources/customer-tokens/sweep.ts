import { ApiError, type Clock } from '@herald/model';
import type { DocumentStore } from '@herald/store';
import { TOKEN_TYPE_IDS } from './token.js';

/**
 * An expired token is kept a day past its expiry, so that redeeming it answers the reference's
 * Expired…Token error rather than ResourceNotFound, then deleted with its ResourceDeleted.
 */
const KEPT_AFTER_EXPIRY = '24 hours';
const BATCH = 500;

/**
 * Deletes expired customer tokens through the document store (versioned, each with its
 * ResourceDeleted change notification, like a token used up). A token redeemed meanwhile is gone
 * already (404) or, if touched, answers 409: either way it is skipped. Stops between two deletes
 * once `signal` is aborted. Returns how many tokens were deleted.
 */
export async function deleteExpiredTokens(documents: DocumentStore, clock: Clock, signal?: AbortSignal): Promise<number> {
  const now = clock.now().toISOString();
  let deleted = 0;
  for (const typeId of Object.values(TOKEN_TYPE_IDS)) {
    for (;;) {
      const expired = await documents.db.query<{ project_key: string; id: string; version: number }>(
        `SELECT project_key, id, version FROM resources
         WHERE type_id = $1 AND (doc->>'expiresAt')::timestamptz < $2::timestamptz - interval '${KEPT_AFTER_EXPIRY}'
         ORDER BY created_at, id LIMIT $3`,
        [typeId, now, BATCH],
      );
      let progressed = false;
      for (const token of expired.rows) {
        if (signal?.aborted === true) return deleted;
        try {
          await documents.delete({ projectKey: token.project_key }, typeId, { id: token.id }, token.version);
          deleted += 1;
          progressed = true;
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
        }
      }
      if (expired.rows.length < BATCH || !progressed) break;
    }
  }
  return deleted;
}
