/**
 * Bounds on the work one query may ask for. Query strings are user input on every list endpoint,
 * so each dimension a request can grow in has a ceiling and a 400 beyond it (§8 blocks requests
 * longer than about 15 KB anyway; these limits hold for callers that are not the HTTP API too).
 */

/** Characters (UTF-16 code units) of one `where` predicate. */
export const MAX_PREDICATE_LENGTH = 10_000;

/** Nesting depth of parentheses, `not(…)` and nested field predicates in one predicate. */
export const MAX_NESTING_DEPTH = 32;

/** Values in one list (`in`, `contains any/all`), after variables were expanded. */
export const MAX_LIST_VALUES = 500;

/** Repeated `where` parameters of one request (they are AND-ed). */
export const MAX_WHERE_PARAMETERS = 32;

/**
 * Values in all `where` predicates of one request, after variables were expanded (a variable used
 * twice counts twice). A value on a column binds one parameter, one on a document field adds to a
 * jsonpath: this many stays well under the 65,535 parameters PostgreSQL's protocol carries and
 * keeps the jsonpaths of a request under about a megabyte (two full lists in each `where`). Without
 * it a 7 KB URL reusing a 500-value variable 140 times compiled to 70,000 parameters (a 500).
 */
export const MAX_QUERY_VALUES = 32_000;

/** Repeated `sort` parameters of one request. */
export const MAX_SORT_PARAMETERS = 16;

/** Characters of one `sort` value. */
export const MAX_SORT_LENGTH = 512;

/** Characters of a number literal; with the exponent bound below every accepted number fits `numeric`. */
export const MAX_NUMBER_LENGTH = 64;
