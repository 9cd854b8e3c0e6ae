/**
 * Compiles a predicate (§4.4) to a PostgreSQL boolean expression over the row alias `r`.
 *
 * Two kinds of fields:
 * - The top-level columns (`id`, `key`, `version`, `createdAt`, `lastModifiedAt`) compare as SQL
 *   with typed, bound values: `r.key IN ($3::text, $4::text)`, `r.created_at > $5::timestamptz`.
 *   Their types are known, so a value of the wrong type is a 400 rather than "no match".
 * - Every other field is inside `r.doc`. A field predicate compiles to ONE jsonpath bound as a
 *   parameter: `r.doc @? $6::jsonpath`. The GIN `jsonb_path_ops` index on `doc` answers `@?` for
 *   equality tests (`name(en = "x")`, `in`, `contains`), also inside `&&`, `||` and nested filters,
 *   which keeps filtered pages fast on large tables.
 *
 * Semantics of doc fields (jsonpath lax mode does the array part):
 * - A path that crosses an array matches if ANY element matches: `lineItems(quantity > 2)`,
 *   `languages = "en"` (an array of strings "contains"), `languages contains any ("en")`.
 * - Comparisons are type-aware: a number literal matches JSON numbers only, a string only strings,
 *   a boolean only booleans. Mismatched types and missing fields are simply no match; jsonpath in
 *   `@?` never raises for them, so no cast error can reach the user.
 * - `!=`, `<>` and `not in` mean "is defined and not equal": a missing field does not match, and
 *   on an array they mean that no element is equal.
 * - `is defined` / `is not defined`: present and not JSON null (an empty array is defined).
 * - `is empty` / `is not empty`: the value is an array with zero / at least one element; anything
 *   else (missing, a scalar) matches neither.
 * - `not(…)` is plain negation of what is inside (so it matches documents without the field).
 * - `within circle(…)` is SQL, not jsonpath (geo.ts), and so only on a top-level field: 400 inside
 *   a nested predicate or on a column.
 * - `:variables` arrive as strings. On columns they take the column's type (text; numeric for
 *   `version`, when the text is a JSON-style number; DateTime for timestamps), else 400. On doc
 *   fields, equality tests (`=`, `!=`, `in`, `contains`) match the JSON string with that text, and
 *   also the JSON number / boolean it spells (`"42"` matches "42" and 42; `"true"` matches "true"
 *   and true); ordering tests (`<` …) compare as a number when the text is a number, else as a
 *   string.
 * Every jsonpath condition built here is two-valued (true or false, never jsonpath's "unknown"),
 * so `!` and `not(…)` negate exactly. Column comparisons are SQL and three-valued: `r.key = $3` is
 * NULL for a resource without a key, and NULL survives AND/OR. A WHERE clause reads NULL as false,
 * so positive conditions need nothing (and stay plain, so the columns' indexes still apply); `not(…)`
 * turns NULL into false before negating, so a predicate and its `not(…)` always partition the rows.
 */
import type { ApiError } from '@herald/model';
import type { ComparisonOperator, FieldPredicate, Operand, Predicate } from './ast.js';
import { atDocumentRoot, type Column, type ColumnLookup, columnOf, type DocumentOf, type FieldRoot, wholeDocument } from './columns.js';
import { predicateError } from './errors.js';
import { withinCircleSql } from './geo.js';
import { jsonPathString, member } from './jsonpath.js';
import type { SqlParameters } from './parameters.js';
import type { QueryParameters } from './types.js';
import { canonicalNumber, isBetweenMicroseconds, normaliseDateTime } from './values.js';

/** Where a query's fields are: which are columns, where the others live inside `doc`, which document SQL tests them. */
export interface FieldPlaces {
  columns: ColumnLookup;
  roots: FieldRoot;
  documentOf: DocumentOf;
}

/** A query's field places, its own where it names them, else the defaults (columns, document root, whole document). */
export function fieldPlaces(query: Pick<QueryParameters, 'columns' | 'fieldRoot' | 'documentOf'>): FieldPlaces {
  return { columns: query.columns ?? columnOf, roots: query.fieldRoot ?? atDocumentRoot, documentOf: query.documentOf ?? wholeDocument };
}

export function compilePredicate(predicate: Predicate, params: SqlParameters, places: FieldPlaces): string {
  switch (predicate.kind) {
    case 'and':
      return `(${predicate.operands.map((operand) => compilePredicate(operand, params, places)).join(' AND ')})`;
    case 'or':
      return `(${predicate.operands.map((operand) => compilePredicate(operand, params, places)).join(' OR ')})`;
    case 'not':
      // `NOT NULL` is NULL: without coalesce, `not(key = "x")` would drop every keyless resource.
      return `(NOT coalesce(${compilePredicate(predicate.operand, params, places)}, false))`;
    case 'field': {
      const column = places.columns(predicate.field);
      if (column !== undefined) return compileColumnPredicate(predicate, column, params);
      const path = [...places.roots(predicate.field), predicate.field];
      if (predicate.test.kind === 'withinCircle') return withinCircleSql(path, predicate.test.circle, params);
      const root = path
        .slice(0, -1)
        .map((segment) => `.${jsonPathString(segment)}`)
        .join('');
      return `(${places.documentOf(path[0] ?? predicate.field)} @? ${params.add(`$${root} ? (${docFieldCondition(predicate)})`)}::jsonpath)`;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Columns

const SQL_OPERATORS: Readonly<Record<ComparisonOperator, string>> = {
  '=': '=',
  '!=': '<>',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};

function compileColumnPredicate(predicate: FieldPredicate, column: Column, params: SqlParameters): string {
  const { test } = predicate;
  const value = (operand: Operand): string => columnValue(predicate.field, column, operand, params);
  /** An instant timestamptz cannot hold: no stored value equals it (see compareBetweenMicroseconds). */
  const unequalToAll = (operand: Operand): boolean =>
    column.type === 'timestamp' && (operand.kind === 'string' || operand.kind === 'variable') && isBetweenMicroseconds(operand.value);
  switch (test.kind) {
    case 'compare':
      if (unequalToAll(test.value)) return compareBetweenMicroseconds(column, test.operator, () => value(test.value));
      // A NULL `key` makes `<>` NULL, so a missing key never matches `!=`, as for doc fields.
      return `${column.sql} ${SQL_OPERATORS[test.operator]} ${value(test.value)}`;
    case 'in': {
      const candidates = test.values.filter((operand) => !unequalToAll(operand));
      if (candidates.length === 0) return test.negated ? `${column.sql} IS NOT NULL` : 'FALSE';
      return `${column.sql} ${test.negated ? 'NOT IN' : 'IN'} (${candidates.map(value).join(', ')})`;
    }
    case 'contains': {
      // A column holds one value: "contains any" is "in"; "contains all" needs every value to be it.
      const candidates = test.values.filter((operand) => !unequalToAll(operand));
      if (test.mode === 'any') return candidates.length === 0 ? 'FALSE' : `${column.sql} IN (${candidates.map(value).join(', ')})`;
      if (candidates.length < test.values.length) return 'FALSE';
      return `(${test.values.map((operand) => `${column.sql} = ${value(operand)}`).join(' AND ')})`;
    }
    case 'defined':
      return `${column.sql} ${test.negated ? 'IS NULL' : 'IS NOT NULL'}`;
    case 'empty':
      // Emptiness is a property of arrays; a column is never an array.
      return 'FALSE';
    case 'nested':
      throw predicateError(predicate.position, `the field "${predicate.field}" is not an object and has no fields`);
    case 'withinCircle':
      throw predicateError(predicate.position, `the field "${predicate.field}" is not a GeoJSON Point`);
  }
}

/**
 * A comparison with an instant between two microseconds (`…00.0000001Z`), which `bound` truncates
 * to the microsecond t before it: a stored value (whole microseconds) is below the instant iff it
 * is at most t, above it iff it is above t, and never equal to it.
 */
function compareBetweenMicroseconds(column: Column, operator: ComparisonOperator, bound: () => string): string {
  switch (operator) {
    case '=':
      return 'FALSE';
    case '!=':
      return `${column.sql} IS NOT NULL`;
    case '<':
    case '<=':
      return `${column.sql} <= ${bound()}`;
    case '>':
    case '>=':
      return `${column.sql} > ${bound()}`;
  }
}

/** Binds `operand` typed for the column; a value of another type is a 400 naming the field. */
function columnValue(field: string, column: Column, operand: Operand, params: SqlParameters): string {
  switch (column.type) {
    case 'text':
      if (operand.kind === 'string' || operand.kind === 'variable') return `${params.add(operand.value)}::text`;
      throw typeMismatch(field, 'a string', operand);
    case 'integer': {
      // Bound as numeric text: `version = 1.5` is a valid question with the answer "no".
      if (operand.kind === 'number') return `${params.add(operand.text)}::numeric`;
      const number = operand.kind === 'variable' ? canonicalNumber(operand.value) : undefined;
      if (number !== undefined) return `${params.add(number.text)}::numeric`;
      throw typeMismatch(field, 'a number', operand);
    }
    case 'timestamp': {
      const text = operand.kind === 'string' || operand.kind === 'variable' ? normaliseDateTime(operand.value) : undefined;
      if (text !== undefined) return `${params.add(text)}::timestamptz`;
      throw typeMismatch(field, 'a DateTime string such as "2024-01-31T12:00:00.000Z"', operand);
    }
  }
}

function typeMismatch(field: string, expected: string, operand: Operand): ApiError {
  const found = operand.kind === 'variable' ? `the variable :${operand.name} = ${JSON.stringify(operand.value.slice(0, 40))}` : `a ${operand.kind}`;
  return predicateError(operand.position, `the field "${field}" needs ${expected} but found ${found}`);
}

// ---------------------------------------------------------------------------------------------
// Document fields (jsonpath conditions relative to the current item `@`)

function docCondition(predicate: Predicate): string {
  switch (predicate.kind) {
    case 'and':
      return `(${predicate.operands.map(docCondition).join(' && ')})`;
    case 'or':
      return `(${predicate.operands.map(docCondition).join(' || ')})`;
    case 'not':
      return `!(${docCondition(predicate.operand)})`;
    case 'field':
      // Inside a nested predicate every field is a doc field, including `id` or `key` of an element.
      return docFieldCondition(predicate);
  }
}

function docFieldCondition({ field, test, position }: FieldPredicate): string {
  const path = member(field);
  /** True when some value of the field (any element, for an array) equals one of `operands`. */
  const anyEquals = (operands: readonly Operand[]): string => {
    const alternatives = operands.flatMap((operand) => equalityCandidates(operand).map((literal) => `@ == ${literal}`));
    return `exists(${path} ? (${alternatives.join(' || ')}))`;
  };
  // Tested on the field itself, not on its elements: an empty array is defined, JSON null is not.
  const defined = `${path}.type() != "null"`;
  switch (test.kind) {
    case 'compare':
      if (test.operator === '=') return anyEquals([test.value]);
      if (test.operator === '!=') return `(${defined} && !${anyEquals([test.value])})`;
      return `exists(${path} ? (@ ${test.operator} ${orderingCandidate(test.value)}))`;
    case 'in':
      return test.negated ? `(${defined} && !${anyEquals(test.values)})` : anyEquals(test.values);
    case 'contains':
      if (test.mode === 'any') return anyEquals(test.values);
      return `(${test.values.map((operand) => anyEquals([operand])).join(' && ')})`;
    case 'defined':
      return test.negated ? `!(${defined})` : defined;
    case 'empty':
      return `(${path}.type() == "array" && ${path}.size() ${test.negated ? '>' : '=='} 0)`;
    case 'nested':
      return `exists(${path} ? (${docCondition(test.predicate)}))`;
    case 'withinCircle':
      throw predicateError(position, `within circle(…) is supported on top-level fields only, not on "${field}" inside a nested predicate`);
  }
}

/**
 * The jsonpath literals an operand equals. Literals have their own type. A variable comes from the
 * URL as a string and the document has no schema, so a variable equals the JSON string with its
 * text, and also the JSON number when the text is a number (`"42"` also matches 42) and the JSON
 * boolean when the text is `true` or `false`.
 */
function equalityCandidates(operand: Operand): string[] {
  switch (operand.kind) {
    case 'string':
      return [jsonPathString(operand.value)];
    case 'number':
      return [operand.text];
    case 'boolean':
      return [String(operand.value)];
    case 'variable': {
      const candidates = [jsonPathString(operand.value)];
      const number = canonicalNumber(operand.value);
      if (number !== undefined) candidates.push(number.text);
      if (operand.value === 'true' || operand.value === 'false') candidates.push(operand.value);
      return candidates;
    }
  }
}

/**
 * The literal an ordering comparison (`<`, `<=`, `>`, `>=`) uses. Ordering needs one type: a
 * variable whose text is a number (JSON number syntax: `42`, `-1.5`, `1e3`) compares as a number,
 * any other variable as a string.
 */
function orderingCandidate(operand: Operand): string {
  if (operand.kind !== 'variable') return equalityCandidates(operand)[0] as string;
  return canonicalNumber(operand.value)?.text ?? jsonPathString(operand.value);
}
