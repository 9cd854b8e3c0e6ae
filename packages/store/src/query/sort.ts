/**
 * `sort` parameters (§4.4.5): `<path> [asc|desc]`, direction default `asc`, case-insensitive;
 * repeated parameters form a composed sort. `id`, `key`, `version`, `createdAt` and
 * `lastModifiedAt` sort by their indexed columns; any other path (`name.en`, `custom.fields.size`)
 * sorts by the jsonb value in `doc`, with missing values and JSON null last in ascending order and
 * first in descending order (one the mirror of the other, so a reversed sort reverses the page).
 *
 * The list always ends with `r.id`, in the direction of the last expression, so that pages are
 * stable and `ORDER BY created_at DESC, id DESC` can walk the (created_at, id) index backwards.
 */
import { invalidInput, type ApiError } from '@herald/model';
import { atDocumentRoot, type ColumnLookup, columnOf, type FieldRoot } from './columns.js';
import { quote } from './errors.js';
import { MAX_SORT_LENGTH, MAX_SORT_PARAMETERS } from './limits.js';
import type { SqlParameters } from './parameters.js';

export type SortDirection = 'asc' | 'desc';

export interface SortExpression {
  path: string[];
  direction: SortDirection;
}

/**
 * A path segment: a field name as a Type accepts it for custom fields (`custom.fields.my-size`,
 * `custom.fields.2nd`), which also covers locales such as `name.de-CH`. Segments other than a
 * single column name are bound as parameters, never written into the SQL.
 */
const SEGMENT = /^[A-Za-z0-9_-]+$/;
const MAX_SORT_PATH_SEGMENTS = 10;

/** Parses one `sort` value; throws a 400 InvalidInput when it is malformed. */
export function parseSort(value: string): SortExpression {
  if (value.length > MAX_SORT_LENGTH) throw sortError(value, `it is longer than ${MAX_SORT_LENGTH} characters`);
  const words = value.trim().split(/[ \t]+/);
  const [pathText = '', directionText = 'asc', ...rest] = words;
  if (pathText === '') throw sortError(value, 'expected a field path such as "createdAt desc"');
  if (rest.length > 0) throw sortError(value, 'expected "<field path> [asc|desc]"');
  const direction = directionText.toLowerCase();
  if (direction !== 'asc' && direction !== 'desc') throw sortError(value, `expected "asc" or "desc" but found ${quote(directionText)}`);
  const path = pathText.split('.');
  if (path.length > MAX_SORT_PATH_SEGMENTS) throw sortError(value, `the path has more than ${MAX_SORT_PATH_SEGMENTS} segments`);
  for (const segment of path) {
    if (!SEGMENT.test(segment)) throw sortError(value, `${quote(segment)} is not a field name`);
  }
  return { path, direction };
}

/** The ORDER BY list (without the keywords) for the `sort` parameters, ending with the tie-breaker. */
/** One ORDER BY term: the value sorted by, and how (`ASC`, `DESC NULLS FIRST`, …). */
export interface SortTerm {
  sql: string;
  order: string;
}

export function compileSort(values: readonly string[], params: SqlParameters, columns: ColumnLookup = columnOf, roots: FieldRoot = atDocumentRoot): SortTerm[] {
  if (values.length > MAX_SORT_PARAMETERS) {
    throw invalidInput(`At most ${MAX_SORT_PARAMETERS} sort parameters are allowed.`, { parameter: 'sort' });
  }
  const expressions = values.map(parseSort);
  const terms = expressions.map((expression) => sortTerm(expression, params, columns, roots));
  const sortsById = expressions.some(({ path }) => path.length === 1 && path[0] === 'id');
  if (!sortsById) {
    const lastDirection = expressions.at(-1)?.direction ?? 'asc';
    terms.push({ sql: 'r.id', order: lastDirection.toUpperCase() });
  }
  return terms;
}

function sortTerm({ path, direction }: SortExpression, params: SqlParameters, columns: ColumnLookup, roots: FieldRoot): SortTerm {
  const column = path.length === 1 ? columns(path[0] as string) : undefined;
  // PostgreSQL's defaults (ASC NULLS LAST, DESC NULLS FIRST) are what we want; stating nothing
  // keeps the terms identical to the index definitions.
  if (column !== undefined) return { sql: column.sql, order: direction.toUpperCase() };
  // Path segments are bound, not inlined; NULLIF makes JSON null sort like a missing value.
  const value = [...roots(path[0] as string), ...path].reduce((sql, segment) => `${sql} -> ${params.add(segment)}::text`, 'r.doc');
  return { sql: `NULLIF(${value}, 'null'::jsonb)`, order: direction === 'asc' ? 'ASC NULLS LAST' : 'DESC NULLS FIRST' };
}

function sortError(value: string, reason: string): ApiError {
  return invalidInput(`Malformed sort parameter ${quote(value)}: ${reason}.`, { parameter: 'sort' });
}
