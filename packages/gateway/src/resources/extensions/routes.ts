import { invalidInput } from '@herald/model';
import { parsePredicate, parseSort, type Predicate } from '@herald/store';
import type { FastifyInstance } from 'fastify';
import { predicateVariables, repeated } from '../../http/query-params.js';
import type { ResourceDeps } from '../shared/context.js';
import { registerVersionedRoutes, type ResourceDefinition } from '../shared/versioned-routes.js';
import type { Extension } from './extension.js';

/**
 * Destination fields a query may filter or sort on: those answers show in full. The secrets
 * (`authentication.headerValue`, `authentication.key`, `accessKey`, `accessSecret`) are partially
 * hidden, and a predicate such as `destination(accessSecret > "k")` would let a caller recover one
 * by bisection whenever secrets are stored unsealed (no HERALD_SECRET_KEY).
 */
const SHOWN: ReadonlySet<string> = new Set([
  'destination',
  'destination.type',
  'destination.url',
  'destination.arn',
  'destination.authentication',
  'destination.authentication.type',
]);

function checkPath(path: readonly string[]): void {
  const field = path.join('.');
  if (path[0] === 'destination' && !SHOWN.has(field)) {
    throw invalidInput(`The field '${field}' is partially hidden and cannot be used in a query predicate or sort.`, { field });
  }
}

function checkPredicate(predicate: Predicate, parent: readonly string[]): void {
  if (predicate.kind === 'and' || predicate.kind === 'or') for (const operand of predicate.operands) checkPredicate(operand, parent);
  else if (predicate.kind === 'not') checkPredicate(predicate.operand, parent);
  else {
    const path = [...parent, predicate.field];
    checkPath(path);
    if (predicate.test.kind === 'nested') checkPredicate(predicate.test.predicate, path);
  }
}

/** 400 for `where`/`sort` reaching a hidden secret; malformed parameters are left to the query's own 400. */
function rejectSecretQueries(query: Record<string, string | string[] | undefined>): void {
  const vars = predicateVariables(query);
  for (const where of repeated(query, 'where')) {
    let predicate: Predicate | undefined;
    try {
      predicate = parsePredicate(where, vars);
    } catch {
      predicate = undefined;
    }
    if (predicate !== undefined) checkPredicate(predicate, []);
  }
  for (const sort of repeated(query, 'sort')) {
    let path: string[] | undefined;
    try {
      path = parseSort(sort).path;
    } catch {
      path = undefined;
    }
    if (path !== undefined) checkPath(path);
  }
}

/** `/{projectKey}/extensions`: the versioned template's eight operations, in a context that guards its queries. */
export function registerExtensionRoutes(app: FastifyInstance, definition: ResourceDefinition<Extension>, deps: ResourceDeps): void {
  void app.register(async (scoped) => {
    scoped.addHook('preHandler', async (request) => rejectSecretQueries(request.query as Record<string, string | string[] | undefined>));
    registerVersionedRoutes(scoped, definition, deps);
  });
}
