import type { BaseResource } from '@herald/model';

/**
 * Which documents a scoped route (`/me/…`, `/in-store/key=…/…`) may see: every condition is a
 * path into the document and the string it must equal. The same conditions filter queries (as
 * bound SQL) and single reads, updates and deletes (in memory), so the two can never disagree.
 */
export interface DocumentScope {
  conditions: ReadonlyArray<{ path: readonly string[]; value: string }>;
}

export const UNSCOPED: DocumentScope = { conditions: [] };

function valueAt(doc: unknown, path: readonly string[]): unknown {
  let current: unknown = doc;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

export function inScope(doc: BaseResource | object, scope: DocumentScope): boolean {
  return scope.conditions.every(({ path, value }) => valueAt(doc, path) === value);
}

/**
 * SQL conditions over the row alias `r` for `runPagedQuery`, numbered from `firstParam`.
 * Paths and values are bound parameters, never inlined.
 */
export function scopeSql(scope: DocumentScope, firstParam: number): { sql: string[]; params: unknown[] } {
  const sql: string[] = [];
  const params: unknown[] = [];
  for (const { path, value } of scope.conditions) {
    const pathParam = firstParam + params.length;
    sql.push(`r.doc #>> $${pathParam}::text[] = $${pathParam + 1}::text`);
    params.push([...path], value);
  }
  return { sql, params };
}
