import { invalidInput, requiredField, type Reference } from '@herald/model';
import { compilePredicate, PredicateSyntaxError, type CompiledPredicate, type PredicateKind } from '../../predicates/index.js';

/** Predicates are bounded like ShippingMethod.predicate (shipping-methods/fields.ts): a text, not a program. */
const MAX_PREDICATE_LENGTH = 4096;

/**
 * A predicate of `kind` in a draft or action, compiled now so that a malformed one is refused:
 * 400 InvalidInput naming the line, column and offset (issue 29), with `field`.
 */
export function compiledField(value: unknown, field: string, kind: PredicateKind): CompiledPredicate {
  if (value === undefined || value === null) throw requiredField(field);
  if (typeof value !== 'string' || value.length > MAX_PREDICATE_LENGTH) {
    throw invalidInput(`'${field}' must be a predicate string of at most ${MAX_PREDICATE_LENGTH} characters.`, { field, invalidValue: value });
  }
  try {
    return compilePredicate(value, kind);
  } catch (error) {
    if (!(error instanceof PredicateSyntaxError)) throw error;
    throw invalidInput(`Malformed ${kind} predicate in '${field}': ${error.message}.`, { field, invalidValue: value, position: error.position });
  }
}

/** The text of a valid predicate of `kind` (see compiledField). */
export function predicateField(value: unknown, field: string, kind: PredicateKind): string {
  return compiledField(value, field, kind).source;
}

/** The reference's generated `references`: the resources the predicate names by id. */
export function predicateReferences(predicates: readonly CompiledPredicate[]): Reference[] {
  const seen = new Map<string, Reference>();
  for (const predicate of predicates) {
    for (const reference of predicate.references) seen.set(`${reference.typeId}:${reference.id}`, { typeId: reference.typeId, id: reference.id } as Reference);
  }
  return [...seen.values()];
}
