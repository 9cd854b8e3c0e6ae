import { isPointWithinCircle, parsePredicate, type FieldPredicate, type FieldTest, type Operand, type Predicate } from '@herald/store';

/**
 * ExtensionTrigger.condition: "a valid query predicate" (reference), parsed by the store's own
 * query parser (the one `where` uses, so the same text means the same) and evaluated here, in
 * process, against the resource as it will be. The semantics are those of the store's compiled
 * predicates (store/src/query/compile.ts): a path that crosses an array matches if any element
 * does, comparisons are type-aware, `is defined` is "present and not null", `is empty` is "an
 * empty array".
 *
 * One difference the reference names: a comparison with a field the resource does not have is not
 * "no match" but an error (ExtensionPredicateEvaluationFailed, "The compared field $fieldName is
 * not present."), thrown as `MissingComparedField`.
 */
export class MissingComparedField extends Error {
  constructor(readonly field: string) {
    super(`The compared field ${field} is not present.`);
    this.name = 'MissingComparedField';
  }
}

/** Parses a condition (throws the store's 400 InvalidInput naming the position when malformed). */
export function parseCondition(condition: string): Predicate {
  return parsePredicate(condition);
}

type Json = unknown;

export function conditionHolds(predicate: Predicate, subject: Json): boolean {
  switch (predicate.kind) {
    case 'and':
      return predicate.operands.every((operand) => conditionHolds(operand, subject));
    case 'or':
      return predicate.operands.some((operand) => conditionHolds(operand, subject));
    case 'not':
      return !conditionHolds(predicate.operand, subject);
    case 'field':
      return fieldHolds(predicate, subject);
  }
}

/** The field's value in `subject`; an array subject contributes each element's value (lax mode). */
function valuesAt(subject: Json, field: string): Json[] | undefined {
  const holders = Array.isArray(subject) ? subject : [subject];
  let found = false;
  const values: Json[] = [];
  for (const holder of holders) {
    if (typeof holder !== 'object' || holder === null || !Object.hasOwn(holder, field)) continue;
    found = true;
    values.push((holder as Record<string, Json>)[field]);
  }
  return found ? values : undefined;
}

/** Every scalar a value stands for: an array's elements, else the value itself. */
const flattened = (values: readonly Json[]): Json[] => values.flatMap((value) => (Array.isArray(value) ? value : [value]));

function fieldHolds(predicate: FieldPredicate, subject: Json): boolean {
  const { field, test } = predicate;
  const values = valuesAt(subject, field);
  const defined = values !== undefined && values.some((value) => value !== null);
  switch (test.kind) {
    case 'defined':
      return test.negated ? !defined : defined;
    case 'empty':
      return values !== undefined && values.some((value) => Array.isArray(value) && (test.negated ? value.length > 0 : value.length === 0));
    case 'nested':
      return values !== undefined && flattened(values).some((value) => typeof value === 'object' && value !== null && conditionHolds(test.predicate, value));
    default:
      if (!defined) throw new MissingComparedField(field);
      return compared(test, flattened(values));
  }
}

function compared(test: Exclude<FieldTest, { kind: 'defined' | 'empty' | 'nested' }>, values: readonly Json[]): boolean {
  const anyEquals = (operands: readonly Operand[]) => values.some((value) => operands.some((operand) => equal(value, operand)));
  switch (test.kind) {
    case 'compare':
      if (test.operator === '=') return anyEquals([test.value]);
      if (test.operator === '!=') return !anyEquals([test.value]);
      return values.some((value) => ordered(value, test.operator as Ordering, test.value));
    case 'in':
      return test.negated ? !anyEquals(test.values) : anyEquals(test.values);
    case 'contains':
      return test.mode === 'any' ? anyEquals(test.values) : test.values.every((operand) => anyEquals([operand]));
    case 'withinCircle':
      return values.some((value) => isPointWithinCircle(value, test.circle));
  }
}

/** Type-aware equality; a variable (URL text) also equals the number or boolean it spells. */
function equal(value: Json, operand: Operand): boolean {
  if (operand.kind !== 'variable') return value === operand.value;
  return value === operand.value || ((typeof value === 'number' || typeof value === 'boolean') && String(value) === operand.value);
}

type Ordering = '<' | '<=' | '>' | '>=';

function ordered(value: Json, operator: Ordering, operand: Operand): boolean {
  const bound = operand.kind === 'variable' && operand.value.trim() !== '' && !Number.isNaN(Number(operand.value)) ? Number(operand.value) : operand.value;
  if (typeof value !== typeof bound || (typeof value !== 'number' && typeof value !== 'string')) return false;
  const [left, right] = [value as number | string, bound as number | string];
  switch (operator) {
    case '<':
      return left < right;
    case '<=':
      return left <= right;
    case '>':
      return left > right;
    case '>=':
      return left >= right;
  }
}
