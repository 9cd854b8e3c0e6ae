/**
 * Predicates on document fields use the GIN index on `resources.doc` (jsonpath `@?`). With GIN's
 * default `fastupdate`, new rows wait in a pending list that every such query scans until a vacuum
 * merges it: right after a bulk write a filtered page took 60+ ms instead of 3 ms. Writes pay a
 * little more to keep reads predictable.
 */
export const ginFastUpdateOff = `ALTER INDEX resources_doc_idx SET (fastupdate = off);`;
