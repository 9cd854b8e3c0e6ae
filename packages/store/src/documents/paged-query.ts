import type { Queryable } from '../database/types.js';
import { compileQuery, parsePaging, TOTAL_CAP, type CompiledQuery, type DocumentOf, type Paging } from '../query/index.js';
import { documentOfType, indexConditionSql } from './document-indexes.js';
import type { PagedQueryResponse, QueryParameters } from '../query/types.js';

export interface QueryRequest extends QueryParameters {
  limit?: string | number;
  offset?: string | number;
  withTotal?: string | boolean;
  /**
   * What each result is, as SQL over the row alias `r` (default `r.doc`): a caller that answers
   * only part of its documents (a product projection needs one of its two data versions) reads
   * only that part, and parses half the JSON.
   */
  documentSql?: string;
}

/**
 * The scope of a query of one project's `typeId` resources ($1 the project, $2 the type), with the
 * document SQL its predicates test: together they let PostgreSQL find the index that holds the
 * type's documents, in custom and generic plans alike (document-indexes.ts).
 */
export function typeScope(typeId: string): { scope: string[]; documentOf: DocumentOf } {
  return { scope: ['r.project_key = $1', 'r.type_id = $2', indexConditionSql(typeId)], documentOf: documentOfType(typeId) };
}

/** One paged query: its table, scope and compiled predicate, with the values they bind. */
interface Plan {
  table: 'resources' | 'messages';
  where: string;
  params: unknown[];
  /** How many of `params` the `where` binds (the scope's and the predicate's). */
  whereParamCount: number;
  compiled: CompiledQuery;
  paging: Paging;
  /** The SQL of each result's document (QueryRequest.documentSql). */
  documentSql: string;
}

/** Shared by the resource and the Messages API queries: scope conditions + compiled predicates. */
export async function runPagedQuery<D>(
  db: Queryable,
  table: 'resources' | 'messages',
  scope: readonly string[],
  scopeParams: readonly unknown[],
  request: QueryRequest,
): Promise<PagedQueryResponse<D>> {
  const paging = parsePaging({ limit: request.limit, offset: request.offset, withTotal: request.withTotal });
  const compiled = compileQuery(
    {
      where: request.where ?? [],
      vars: request.vars ?? {},
      sort: request.sort ?? [],
      columns: request.columns,
      fieldRoot: request.fieldRoot,
      documentOf: request.documentOf,
    },
    scopeParams.length + 1,
  );
  const plan: Plan = {
    table,
    where: `${scope.join(' AND ')} AND (${compiled.whereSql})`,
    params: [...scopeParams, ...compiled.params],
    whereParamCount: scopeParams.length + compiled.whereParamCount,
    compiled,
    paging,
    documentSql: request.documentSql ?? 'r.doc',
  };
  const { docs, total } = compiled.filtered && paging.withTotal ? await filteredPage<D>(db, plan) : await scopedPage<D>(db, plan);
  const response: PagedQueryResponse<D> = { limit: paging.limit, offset: paging.offset, count: docs.length, results: docs };
  if (total !== undefined) response.total = total;
  return response;
}

interface Page<D> {
  docs: D[];
  total?: number;
}

/**
 * Without a predicate: the page in index order, and (with `withTotal`) the exact count of the
 * scope, which travels with the page as an uncorrelated subquery (run once, as an InitPlan): one
 * round trip instead of two.
 */
async function scopedPage<D>(db: Queryable, plan: Plan, knownTotal?: number): Promise<Page<D>> {
  const { table, where, params, paging, documentSql } = plan;
  const counted = paging.withTotal && knownTotal === undefined;
  const countSql = `SELECT count(*)::int AS total FROM ${table} r WHERE ${where}`;
  const limitParam = params.length + 1;
  const page = await db.query<{ doc: D; total?: number }>(
    `SELECT ${documentSql} AS doc${counted ? `, (${countSql}) AS total` : ''} FROM ${table} r WHERE ${where} ORDER BY ${plan.compiled.orderBySql} LIMIT $${limitParam} OFFSET $${limitParam + 1}`,
    [...params, paging.limit, paging.offset],
  );
  const docs = page.rows.map((row) => row.doc);
  if (!paging.withTotal) return { docs };
  if (!counted) return { docs, total: knownTotal };
  // An empty page past the first has no row to carry the total: counted on its own.
  const carried = page.rows[0]?.total;
  if (carried !== undefined || paging.offset === 0) return { docs, total: carried ?? 0 };
  const alone = await db.query<{ total: number }>(countSql, params.slice(0, plan.whereParamCount));
  return { docs, total: alone.rows[0]?.total ?? 0 };
}

/**
 * With a predicate, the total is an estimate capped at the maximum offset (§4.4.4), and each row
 * the predicate looks at costs a decompression of its document (a product's is several kB).
 * Counting and paging separately looked at every match twice. Here the predicate runs once: the
 * matches' row addresses and sort values (at most the cap and one) are collected, counted, and the
 * page is sorted from them; only the page's documents are read. When more than the cap match, the
 * collected rows are not all of them, so the page is read as without a predicate, its total known.
 */
async function filteredPage<D>(db: Queryable, plan: Plan): Promise<Page<D>> {
  const { table, where, params, paging, compiled, documentSql } = plan;
  const terms = compiled.orderTerms;
  const sortValues = terms.map(({ sql }, index) => `${sql} AS s${index}`).join(', ');
  const orderBy = (alias: string) => terms.map(({ order }, index) => `${alias}.s${index} ${order}`).join(', ');
  const limitParam = params.length + 1;
  const result = await db.query<{ doc: D | null; total: number }>(
    `WITH hits AS MATERIALIZED (SELECT r.ctid AS row_address, ${sortValues} FROM ${table} r WHERE ${where} LIMIT ${TOTAL_CAP + 1})
     SELECT ${documentSql} AS doc, c.total
     FROM (SELECT count(*)::int AS total FROM hits) c
     LEFT JOIN LATERAL (SELECT * FROM hits h WHERE c.total <= ${TOTAL_CAP} ORDER BY ${orderBy('h')} LIMIT $${limitParam} OFFSET $${limitParam + 1}) p ON true
     LEFT JOIN ${table} r ON r.ctid = p.row_address
     ORDER BY ${orderBy('p')}`,
    [...params, paging.limit, paging.offset],
  );
  const total = result.rows[0]?.total ?? 0;
  if (total > TOTAL_CAP) return scopedPage<D>(db, plan, TOTAL_CAP);
  return { docs: result.rows.flatMap((row) => (row.doc === null ? [] : [row.doc])), total };
}
