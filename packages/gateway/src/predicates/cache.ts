import { compilePredicate, type CompiledPredicate } from './compile.js';
import type { PredicateKind } from './vocabulary.js';

/** How many compiled predicates one process keeps: far above the platform's active discount limits. */
const CAPACITY = 2_000;
const cache = new Map<string, CompiledPredicate>();

/**
 * The compiled form of `source`, compiled once per process and kind (least recently used
 * dropped first): pricing evaluates the same discount predicates for every price and cart.
 */
export function compiledPredicate(source: string, kind: PredicateKind): CompiledPredicate {
  const key = `${kind}\u0000${source}`;
  const known = cache.get(key);
  if (known !== undefined) {
    cache.delete(key);
    cache.set(key, known);
    return known;
  }
  const compiled = compilePredicate(source, kind);
  cache.set(key, compiled);
  if (cache.size > CAPACITY) cache.delete(cache.keys().next().value as string);
  return compiled;
}
