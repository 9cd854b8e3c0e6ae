import { invalidInput } from '@herald/model';
import { parsePredicate, parseSort, type Predicate } from '@herald/store';
import { predicateVariables, repeated } from '../../http/query-params.js';

/**
 * Destination fields a query may filter or sort on: everything §2.4 shows in full. The others
 * (`accessSecret`, the Event Grid `accessKey`, the Service Bus `connectionString`) are partially
 * hidden on retrieval, and a predicate such as `destination(accessSecret > "k")` would otherwise
 * let a caller recover the hidden value by bisection (or a sort by ordering subscriptions by it)
 * whenever secrets are stored unsealed (no HERALD_SECRET_KEY).
 */
const QUERYABLE_DESTINATION_FIELDS: ReadonlySet<string> = new Set(['type', 'queueUrl', 'region', 'topicArn', 'accountId', 'uri', 'projectId', 'topic']);

function refuse(path: readonly string[], why = 'is partially hidden'): never {
  const field = path.join('.');
  throw invalidInput(`The field '${field}' ${why} and cannot be used in a query predicate or sort.`, {
    field,
  });
}

function checkPath(path: readonly string[]): void {
  const [first, second] = path;
  if (first === 'destination' && second !== undefined && !QUERYABLE_DESTINATION_FIELDS.has(second)) refuse(path);
  // The health status is read from the delivery engine when a subscription is answered, not stored
  // with it: a predicate on it would match nothing, silently (GET …/subscriptions/{id}/health).
  if (first === 'status' && path.length === 1) refuse(path, 'is the live health, not a stored field,');
}

function checkPredicate(predicate: Predicate, parent: readonly string[]): void {
  switch (predicate.kind) {
    case 'and':
    case 'or':
      for (const operand of predicate.operands) checkPredicate(operand, parent);
      return;
    case 'not':
      checkPredicate(predicate.operand, parent);
      return;
    case 'field': {
      const path = [...parent, predicate.field];
      checkPath(path);
      if (predicate.test.kind === 'nested') checkPredicate(predicate.test.predicate, path);
    }
  }
}

/**
 * Refuses `where` and `sort` parameters that reach a hidden destination secret, or the health
 * `status` that responses show but documents do not hold (400 InvalidInput).
 * Malformed parameters are left to the query itself, which answers them with its own 400.
 */
export function rejectSecretQueries(query: Record<string, string | string[] | undefined>): void {
  const vars = predicateVariables(query);
  for (const where of repeated(query, 'where')) {
    let predicate: Predicate;
    try {
      predicate = parsePredicate(where, vars);
    } catch {
      continue;
    }
    checkPredicate(predicate, []);
  }
  for (const sort of repeated(query, 'sort')) {
    let path: string[];
    try {
      path = parseSort(sort).path;
    } catch {
      continue;
    }
    checkPath(path);
  }
}
