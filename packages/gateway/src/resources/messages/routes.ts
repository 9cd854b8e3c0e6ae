import { resourceNotFound, type Clock, type Message } from '@herald/model';
import { runPagedQuery } from '@herald/store';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { queryRequest } from '../../http/query-params.js';
import type { ResourceDeps } from '../shared/context.js';
import { expanding } from '../shared/route-helpers.js';
import { MESSAGE_ROUTE_SCOPES, mayRead, messageAccess } from './access.js';
import { scheduleMessageCleanup } from './cleanup.js';
import { expiryCutoff } from './retention.js';

type Query = Record<string, string | string[] | undefined>;

function projectOf(request: FastifyRequest) {
  const project = request.project;
  if (project === undefined) throw new Error('messages route without a project');
  return project;
}

/**
 * The Messages API: `GET /{projectKey}/messages` (where, var.*, sort, expand, limit, offset,
 * withTotal) and `GET /{projectKey}/messages/{id}` (expand).
 *
 * `expand` (§4.4.7, e.g. `resource`) goes through `expanding()` like every other query route: the
 * expand list is checked (400 beyond the store's limit) before the query runs, and a reference is
 * expanded only for a token with the view scope of its type (expansionLoader), so reading
 * messages is no way around the resources' own scopes.
 *
 * Access: `view_messages` (or `manage_project`) reads every message; a token with only the view
 * scope of some resource types (`view_quote_requests`, `manage_orders`, …) reads the messages of
 * those types. A message the token may not read answers 404, like one that does not exist, in the
 * list as for a single read. Expired messages are hidden even before the cleanup removes them.
 *
 * Messages stored before the project disabled them stay readable until they expire; while
 * disabled, new ones go to the outbox only (`WriteContext.storeMessages`).
 *
 * Also schedules `cleanupExpiredMessages` for the app's lifetime (cleanup.ts).
 */
export function registerMessageRoutes(app: FastifyInstance, deps: ResourceDeps, clock: Clock): void {
  const config = { auth: { anyOf: MESSAGE_ROUTE_SCOPES } } as const;

  app.get(
    '/:projectKey/messages',
    { config },
    expanding(deps.documents, async (request, expansion) => {
      const project = projectOf(request);
      const query = request.query as Query;
      const access = messageAccess(request.auth);
      const scope = ['r.project_key = $1', 'r.created_at >= $2::timestamptz'];
      const params: unknown[] = [project.key, expiryCutoff(project, clock).toISOString()];
      if (!access.all) {
        scope.push('r.resource_type_id = ANY($3::text[])');
        params.push(access.resourceTypeIds);
      }
      const page = await runPagedQuery<Message>(deps.documents.db, 'messages', scope, params, queryRequest(query));
      page.results = await expansion.all(page.results);
      return page;
    }),
  );

  app.get(
    '/:projectKey/messages/:id',
    { config },
    expanding(deps.documents, async (request, expansion) => {
      const project = projectOf(request);
      const { id } = request.params as { id: string };
      const result = await deps.documents.db.query<{ doc: Message; resource_type_id: string }>(
        `SELECT doc, resource_type_id FROM messages WHERE project_key = $1 AND id = $2 AND created_at >= $3::timestamptz`,
        [project.key, id, expiryCutoff(project, clock).toISOString()],
      );
      const row = result.rows[0];
      if (row === undefined || !mayRead(messageAccess(request.auth), row.resource_type_id)) {
        throw resourceNotFound(`The message with id '${id}' was not found.`);
      }
      return expansion.one(row.doc);
    }),
  );

  scheduleMessageCleanup(app, deps.documents.db, clock);
}
