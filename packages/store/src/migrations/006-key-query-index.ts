/**
 * An index for query predicates on `key` (`where=key="…"`, §4.4.3). Migration 005 replaced
 * `resources_key_idx` by `resources_key_lookup_idx`, built under COLLATE "C" for the store's own
 * lookups of one resource; a query predicate compares in the database's default collation, which
 * cannot use that index, so `where=key="…"` became a scan of the project and type. This restores
 * a default-collation index for it (not unique: the lookup index enforces uniqueness).
 */
export const keyQueryIndex = `
CREATE INDEX resources_key_query_idx ON resources (project_key, type_id, key) WHERE key IS NOT NULL;
`;
