import { ApiError } from '@herald/model';
import type { FastifyInstance } from 'fastify';
import { errorBody } from './errors.js';

/** A paged query response (§4.4.6) that holds nothing: `count` 0 on the first page, or `total` 0. */
function isEmptyQueryPage(payload: string): boolean {
  if (!payload.startsWith('{')) return false;
  let page: unknown;
  try {
    page = JSON.parse(payload);
  } catch {
    return false;
  }
  if (typeof page !== 'object' || page === null) return false;
  const { results, count, offset, total } = page as Record<string, unknown>;
  if (!Array.isArray(results) || results.length > 0 || count !== 0) return false;
  return total === 0 || offset === 0;
}

/**
 * HEAD on a query endpoint is an existence check: the commercetools SDK's `.head({ queryArgs:
 * { where } })` builders ("Returns a 200 status if any match the query predicate, or a 404 status
 * otherwise") rely on it. Fastify answers HEAD with the status of the GET twin, which is 200 for an
 * empty page; this turns an empty page into a 404 (the body is dropped for HEAD as always). HEAD on
 * a single resource needs nothing: its GET twin already answers 404 for a missing one.
 */
export function installHeadExistenceChecks(app: FastifyInstance): void {
  // A callback hook: it runs on every response, and an async one costs a promise each time (issue 30).
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.method !== 'HEAD' || reply.statusCode !== 200 || typeof payload !== 'string' || !isEmptyQueryPage(payload)) {
      done(null, payload);
      return;
    }
    reply.code(404);
    done(null, JSON.stringify(errorBody(new ApiError(404, { code: 'ResourceNotFound', message: 'No resource matches the query.' }))));
  });
}
