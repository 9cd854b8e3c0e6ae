import type { BaseResource } from '@herald/model';
import type { Queryable } from '../database/types.js';

/**
 * Search terms (issue 28, migration 015): the scalar values of a document that searches filter,
 * facet and sort by, as rows a type declares once (`DocumentStore.declareSearchTerms`). The store
 * replaces a document's rows in the statement or transaction that writes it, so a search sees
 * every committed write and nothing else. What the rows mean (parts, units, paths) is the
 * declaring type's; the store only keeps them.
 */
export interface SearchTerm {
  /** The part of the document, e.g. a product's `current` or `staged` data. */
  part: string;
  /** 0: the document (part) itself; else a unit within it, e.g. a variant's id. */
  unit: number;
  /** The dotted path of the value; '' marks that the unit exists (kind 'u'). */
  path: string;
  kind: 's' | 'n' | 'b' | 'u';
  str: string | null;
  num: number | null;
}

export interface SearchTermsDeclaration<D extends BaseResource = BaseResource> {
  /** Names the derivation: documents stored under another version get their rows derived again. */
  version: string;
  termsOf(doc: D): readonly SearchTerm[];
}

export type SearchTermDeclarations = Map<string, SearchTermsDeclaration>;

/** Rows bound as six parallel arrays (`text[]`, `int[]`, `text[]`, `text[]`, `text[]`, `float8[]`). */
export function termParams(terms: readonly SearchTerm[]): unknown[][] {
  return [
    terms.map((t) => t.part),
    terms.map((t) => t.unit),
    terms.map((t) => t.path),
    terms.map((t) => t.kind),
    terms.map((t) => t.str),
    terms.map((t) => t.num),
  ];
}

/**
 * The common table expressions that replace a document's rows beside its write (project $1, type
 * $2, id `$idParam`; the six arrays from `firstParam`). `replace` deletes the old rows first (the
 * statement's DELETE does not see the rows its INSERT adds); `written` names a CTE whose rows say
 * the document was written.
 */
export function termStatements(idParam: number, firstParam: number, replace: boolean, written?: string): string {
  const [parts, units, paths, kinds, strs, nums] = ['text', 'int', 'text', 'text', 'text', 'float8'].map(
    (type, offset) => `$${firstParam + offset}::${type}[]`,
  );
  const ifWritten = written === undefined ? '' : ` AND EXISTS (SELECT 1 FROM ${written})`;
  const removed = replace
    ? `terms_removed AS (DELETE FROM search_terms WHERE project_key = $1 AND type_id = $2 AND resource_id = $${idParam}${ifWritten}),\n  `
    : '';
  return `${removed}terms_added AS (
    INSERT INTO search_terms (project_key, type_id, resource_id, part, unit, path, kind, str, num)
    SELECT $1, $2, $${idParam}, t.part, t.unit, t.path, t.kind, t.str, t.num
    FROM unnest(${parts}, ${units}, ${paths}, ${kinds}, ${strs}, ${nums}) AS t(part, unit, path, kind, str, num)
    WHERE true${ifWritten})`;
}

export const REMOVE_TERMS_SQL = 'DELETE FROM search_terms WHERE project_key = $1 AND type_id = $2 AND resource_id = $3';

const BATCH = 200;

/**
 * Derives the rows of every stored document of a type in a project (documents stored before the
 * type declared its terms, or under another version), once: under a transaction-scoped advisory
 * lock, with the documents share-locked so that no write changes them meanwhile; only the rows of
 * the documents read are replaced (a document created meanwhile wrote its own).
 */
export async function deriveAllTerms(tx: Queryable, projectKey: string, typeId: string, declaration: SearchTermsDeclaration): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`search_terms:${projectKey}:${typeId}`]);
  const built = await tx.query<{ version: string }>('SELECT version FROM search_term_builds WHERE project_key = $1 AND type_id = $2', [projectKey, typeId]);
  if (built.rows[0]?.version === declaration.version) return;
  const docs = await tx.query<{ doc: BaseResource }>('SELECT doc FROM resources WHERE project_key = $1 AND type_id = $2 ORDER BY id FOR SHARE', [
    projectKey,
    typeId,
  ]);
  for (let start = 0; start < docs.rows.length; start += BATCH) {
    const batch = docs.rows.slice(start, start + BATCH).map((row) => row.doc);
    await tx.query('DELETE FROM search_terms WHERE project_key = $1 AND type_id = $2 AND resource_id = ANY($3::text[])', [
      projectKey,
      typeId,
      batch.map((doc) => doc.id),
    ]);
    const rows = batch.flatMap((doc) => declaration.termsOf(doc).map((term) => ({ id: doc.id, term })));
    await tx.query(
      `INSERT INTO search_terms (project_key, type_id, resource_id, part, unit, path, kind, str, num)
       SELECT $1, $2, t.id, t.part, t.unit, t.path, t.kind, t.str, t.num
       FROM unnest($3::text[], $4::text[], $5::int[], $6::text[], $7::text[], $8::text[], $9::float8[]) AS t(id, part, unit, path, kind, str, num)`,
      [projectKey, typeId, rows.map((row) => row.id), ...termParams(rows.map((row) => row.term))],
    );
  }
  await tx.query(
    `INSERT INTO search_term_builds (project_key, type_id, version) VALUES ($1, $2, $3)
     ON CONFLICT (project_key, type_id) DO UPDATE SET version = EXCLUDED.version`,
    [projectKey, typeId, declaration.version],
  );
}

/** The declarations of a store and of every store `within` derives from it, and which (project, type) have complete rows. */
export class SearchTermRegistry {
  readonly declared: SearchTermDeclarations = new Map();
  /** `project\0type\0version` known complete: the check is a query once per process. */
  readonly complete = new Set<string>();
}
