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

/** Repeated `sort` parameters of one request. */
export const MAX_SORT_PARAMETERS = 16;

/** Characters of one `sort` value. */
export const MAX_SORT_LENGTH = 512;

/** Characters of a number literal; with the exponent bound below every accepted number fits `numeric`. */
export const MAX_NUMBER_LENGTH = 64;
