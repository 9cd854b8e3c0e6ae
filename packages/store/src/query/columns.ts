/**
 * Top-level fields that have their own column (§2.1: id, key, version, createdAt and
 * lastModifiedAt are usable in predicates and sorting). They are indexed, so predicates and sorts
 * on them use the columns rather than the copies inside `doc`.
 */
export type ColumnType = 'text' | 'integer' | 'timestamp';

export interface Column {
  sql: string;
  type: ColumnType;
}

const COLUMNS: Readonly<Record<string, Column>> = {
  id: { sql: 'r.id', type: 'text' },
  key: { sql: 'r.key', type: 'text' },
  version: { sql: 'r.version', type: 'integer' },
  createdAt: { sql: 'r.created_at', type: 'timestamp' },
  lastModifiedAt: { sql: 'r.last_modified_at', type: 'timestamp' },
};

/** Which top-level fields of a query's documents are read from their own column. */
export type ColumnLookup = (field: string) => Column | undefined;

export const columnOf: ColumnLookup = (field) => (Object.hasOwn(COLUMNS, field) ? COLUMNS[field] : undefined);

/**
 * For documents whose `key` column is not their `key` field (a Custom Object's is container/key,
 * see lookupKey): `key` in a predicate or sort is the document's field, like any other.
 */
export const columnOfKeyInDocument: ColumnLookup = (field) => (field === 'key' ? undefined : columnOf(field));

/**
 * Where a top-level field of a query's documents lives inside `doc`: the members to descend first
 * (default none). A view over part of a document (a ProductProjection is a product's
 * `masterData.current` or `masterData.staged` beside the product's own fields) queries and sorts
 * the stored document in place, so the GIN index on `doc` still answers its predicates.
 */
export type FieldRoot = (field: string) => readonly string[];

export const atDocumentRoot: FieldRoot = () => [];

/**
 * The SQL of the document a test on a top-level `member` reads (default `r.doc`). A store whose
 * index holds only part of some documents (documents/document-indexes.ts) names that part for the
 * members it holds, so that PostgreSQL can answer the test from the index.
 */
export type DocumentOf = (member: string) => string;

export const wholeDocument: DocumentOf = () => 'r.doc';
