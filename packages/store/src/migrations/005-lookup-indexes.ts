/**
 * Indexes that only the store's lookups of one resource can use, so that their plan does not depend
 * on planner statistics.
 *
 * A lookup `project_key = $1 AND type_id = $2 AND id = $3` belongs on the primary key. Without
 * statistics for the values looked up, though, PostgreSQL takes each equality to keep 1/200 of the
 * rows, so the whole project and type looks like a single row. Every index that starts with
 * (project_key, type_id) then seems as good as the primary key: `resources_created_idx` and
 * `resources_modified_idx` cost exactly as much, and the partial `resources_customer_email_idx`
 * costs a little less for customers. PostgreSQL breaks the tie in favour of the most recently
 * created index, and the plan it picks reads every entry of the project and type.
 *
 * This happens on a new database until its first autoanalyze. On PGlite, which has no autovacuum,
 * it lasts until the table seems to hold about 60,000 rows. With statistics it happens again for
 * each project or type that did not exist at the last ANALYZE, such as a new tenant, until the next
 * autoanalyze (after 10 % of the table has changed).
 *
 * The store's lookups compare under COLLATE "C", and these indexes are the only ones built that way.
 * A condition can use an index column, or imply a partial index's predicate, only when their
 * collations are the same, so the planner has nothing else to choose, whatever the statistics. For
 * text equality the result is the same under "C" as under the database's default collation, which
 * is always deterministic.
 *
 * The cost is one more btree entry per resource write, for ids. The primary key stays, because the
 * other packages look resources up with plain conditions (their lookups still depend on
 * statistics). Keys add nothing: only the store looks resources up by key, so its index replaces
 * `resources_key_idx`, with the same uniqueness.
 */
export const lookupIndexes = `
CREATE UNIQUE INDEX resources_id_lookup_idx
  ON resources (project_key COLLATE "C", type_id COLLATE "C", id COLLATE "C");
CREATE UNIQUE INDEX resources_key_lookup_idx
  ON resources (project_key COLLATE "C", type_id COLLATE "C", key COLLATE "C") WHERE key IS NOT NULL;
DROP INDEX resources_key_idx;
`;
