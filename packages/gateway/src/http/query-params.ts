import { invalidInput } from '@herald/model';
import type { QueryRequest } from '@herald/store';
import { expectedVersion } from './version.js';

type RawQuery = Record<string, string | string[] | undefined>;

/** Values of a parameter that may be repeated (`where`, `sort`, `expand`, `var.x`). */
export function repeated(query: RawQuery, name: string): string[] {
  const value = query[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/**
 * A single-valued parameter (`limit`, `offset`, `withTotal`, `version`, `dataErasure`). Repeated
 * with the same value it means that value: the official SDK's `process()` appends its own
 * `withTotal=false` (and `sort=id asc`) to a request that may already carry `withTotal=false`.
 * Repeated with different values it is ambiguous: 400.
 */
export function single(query: RawQuery, name: string): string | undefined {
  const value = query[name];
  if (!Array.isArray(value)) return value;
  const [first, ...others] = value;
  if (others.some((other) => other !== first)) throw invalidInput(`The parameter '${name}' must not be repeated with different values.`);
  return first;
}

/** §4.1: `var.<name>` parameters (name `^[a-zA-Z0-9]+$`), each possibly repeated. */
export function predicateVariables(query: RawQuery): Record<string, string[]> {
  const vars: Record<string, string[]> = {};
  for (const name of Object.keys(query)) {
    const match = /^var\.([a-zA-Z0-9]+)$/.exec(name);
    if (match?.[1] !== undefined) vars[match[1]] = repeated(query, name);
  }
  return vars;
}

/**
 * The query string of a query endpoint (§4.1, §4.4) as the store's query request: `where`, `var.*`
 * and `sort` (repeatable), `limit`, `offset` and `withTotal` (single). `expand` is not part of it:
 * `expanding()` checks and applies it around the handler (resources/shared/route-helpers.ts).
 */
export function queryRequest(query: RawQuery): QueryRequest {
  return {
    where: repeated(query, 'where'),
    vars: predicateVariables(query),
    sort: repeated(query, 'sort'),
    limit: single(query, 'limit'),
    offset: single(query, 'offset'),
    withTotal: single(query, 'withTotal'),
  };
}

/**
 * A required `version` query parameter (deletes): decimal digits, then the same rule as a body's
 * version (`expectedVersion`). Digits only, because `Number('')` and `Number(' ')` are 0.
 */
export function versionParam(query: RawQuery): number {
  const raw = single(query, 'version');
  if (raw === undefined) throw invalidInput("Missing required query parameter 'version'.", { field: 'version' });
  if (!/^[0-9]{1,16}$/.test(raw)) throw invalidInput(`Invalid version '${raw}'.`, { field: 'version' });
  return expectedVersion(Number(raw));
}

export function booleanParam(query: RawQuery, name: string, fallback: boolean): boolean {
  const raw = single(query, name);
  if (raw === undefined) return fallback;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw invalidInput(`The parameter '${name}' must be true or false.`);
}
