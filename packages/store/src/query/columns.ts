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

export function columnOf(field: string): Column | undefined {
  return Object.hasOwn(COLUMNS, field) ? COLUMNS[field] : undefined;
}
