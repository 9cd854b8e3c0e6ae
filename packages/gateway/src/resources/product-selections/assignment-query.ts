import { compileQuery, parsePaging, TOTAL_CAP, type PagedQueryResponse, type Queryable, type QueryRequest } from '@herald/store';

/**
 * A rows source for `queryAssignments`: a SELECT with the columns `doc` (the jsonb each result
 * shows) and `id` (a text unique among the rows, the pages' tie-breaker), its placeholders
 * numbered from $1.
 */
export interface AssignmentSource {
  sql: string;
  params: readonly unknown[];
}

/** Every field of an assignment lives in `doc` (none has a column of its own). */
const NO_COLUMNS = (): undefined => undefined;

/**
 * `where`, `sort` and paging (§4.4) over assignments, which are elements of the selections'
 * documents, not rows: the store's query compiler runs over the derived rows `r(doc, id)` of
 * `source`. The reference's assignment endpoints compute `total` only with `withTotal=true`.
 */
export async function queryAssignments<T>(db: Queryable, source: AssignmentSource, request: QueryRequest): Promise<PagedQueryResponse<T>> {
  const paging = parsePaging({ limit: request.limit, offset: request.offset, withTotal: request.withTotal ?? 'false' });
  const compiled = compileQuery(
    { where: request.where ?? [], vars: request.vars ?? {}, sort: request.sort ?? [], columns: NO_COLUMNS },
    source.params.length + 1,
  );
  const from = `(${source.sql}) r WHERE ${compiled.whereSql}`;
  const params = [...source.params, ...compiled.params];
  const page = await db.query<{ doc: T }>(
    `SELECT r.doc FROM ${from} ORDER BY ${compiled.orderBySql} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, paging.limit, paging.offset],
  );
  const response: PagedQueryResponse<T> = { limit: paging.limit, offset: paging.offset, count: page.rows.length, results: page.rows.map((row) => row.doc) };
  if (paging.withTotal) {
    const countParams = params.slice(0, source.params.length + compiled.whereParamCount);
    const capped = compiled.filtered ? ` LIMIT ${TOTAL_CAP}` : '';
    const counted = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM (SELECT 1 FROM ${from}${capped}) counted`, countParams);
    response.total = counted.rows[0]?.total ?? 0;
  }
  return response;
}

/**
 * The selections' assignments, one row each, numbered in the order they were made. A deleted
 * product leaves its assignments in the selections' documents (a product's deletion does not
 * rewrite them): they are not shown.
 */
const ASSIGNMENTS = `FROM resources s CROSS JOIN LATERAL jsonb_array_elements(s.doc -> 'assignments') WITH ORDINALITY AS a(value, n)
  WHERE s.project_key = $1 AND s.type_id = 'product-selection'
    AND EXISTS (SELECT 1 FROM resources p WHERE p.project_key = $1 AND p.type_id = 'product' AND p.id = a.value -> 'product' ->> 'id')`;

const SELECTION_REFERENCE = `jsonb_build_object('typeId', 'product-selection', 'id', s.id)`;

/** AssignedProductReference rows of one selection (`/product-selections/{id}/products`). */
export function productsOfSelection(projectKey: string, selectionId: string): AssignmentSource {
  return {
    sql: `SELECT a.value - 'createdAt' AS doc, lpad(a.n::text, 10, '0') AS id ${ASSIGNMENTS} AND s.id = $2`,
    params: [projectKey, selectionId],
  };
}

/** AssignedProductSelection rows of one product (`/products/{id}/product-selections`). */
export function selectionsOfProduct(projectKey: string, productId: string): AssignmentSource {
  return {
    sql: `SELECT jsonb_build_object('productSelection', ${SELECTION_REFERENCE}) || (a.value - 'product') AS doc, s.id AS id ${ASSIGNMENTS}
      AND s.doc @? $2::jsonpath AND a.value -> 'product' ->> 'id' = $3`,
    // The jsonpath lets the GIN index on `doc` find the selections; the equality picks the element.
    params: [projectKey, `$.assignments[*].product ? (@.id == ${JSON.stringify(productId)})`, productId],
  };
}

/** ProductSelectionAssignment rows of the given selections (`/in-store/key={storeKey}/product-selection-assignments`). */
export function assignmentsOfSelections(projectKey: string, selectionIds: readonly string[]): AssignmentSource {
  return {
    sql: `SELECT jsonb_build_object('product', a.value -> 'product', 'productSelection', ${SELECTION_REFERENCE}) || (a.value - 'product' - 'createdAt') AS doc,
      s.id || ':' || lpad(a.n::text, 10, '0') AS id ${ASSIGNMENTS} AND s.id = ANY($2::text[])`,
    params: [projectKey, selectionIds],
  };
}
