/** The discount predicate language (issue 29): compiled once, evaluated in process. Pure: no HTTP, no store. */
export { compiledPredicate } from './cache.js';
export { compilePredicate, type CompiledPredicate, type PredicateReference, type PredicateSubject } from './compile.js';
export { PredicateSyntaxError, type SourcePosition } from './errors.js';
export type { PredicateKind } from './vocabulary.js';
export { compareValues, isMoneyValue, type MoneyValue } from './values.js';
