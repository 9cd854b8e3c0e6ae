/**
 * The syntax tree of a query predicate (§4.4). `and`/`or` are n-ary so that a long chain
 * (`a = 1 or a = 2 or …`) is a flat list, not a deep tree: compiling it never recurses per term.
 */
export type Predicate = AndPredicate | OrPredicate | NotPredicate | FieldPredicate;

export interface AndPredicate {
  kind: 'and';
  operands: Predicate[];
}

export interface OrPredicate {
  kind: 'or';
  operands: Predicate[];
}

export interface NotPredicate {
  kind: 'not';
  operand: Predicate;
}

/** A test on one field; `position` is the character offset of the field name, for error messages. */
export interface FieldPredicate {
  kind: 'field';
  field: string;
  position: number;
  test: FieldTest;
}

/** `<>` is parsed as `!=`: they mean the same. */
export type ComparisonOperator = '=' | '!=' | '<' | '<=' | '>' | '>=';

export type FieldTest =
  | { kind: 'compare'; operator: ComparisonOperator; value: Operand }
  | { kind: 'in'; negated: boolean; values: Operand[] }
  | { kind: 'contains'; mode: 'any' | 'all'; values: Operand[] }
  | { kind: 'empty'; negated: boolean }
  | { kind: 'defined'; negated: boolean }
  | { kind: 'nested'; predicate: Predicate }
  | { kind: 'withinCircle'; circle: Circle };

/**
 * `within circle(longitude, latitude, radius)` on a GeoJSON Point (Channel.geoLocation): degrees
 * WGS84 and meters, already checked to be in range (geo.ts).
 */
export interface Circle {
  longitude: number;
  latitude: number;
  radius: number;
}

export type Operand = StringLiteral | NumberLiteral | BooleanLiteral | VariableValue;

export interface StringLiteral {
  kind: 'string';
  value: string;
  position: number;
}

/** `text` is the canonical decimal text (no leading zeros), valid both as `numeric` and in jsonpath. */
export interface NumberLiteral {
  kind: 'number';
  value: number;
  text: string;
  position: number;
}

export interface BooleanLiteral {
  kind: 'boolean';
  value: boolean;
  position: number;
}

/**
 * One value of a `:name` variable, already bound from `var.name`. Its type is not known until it
 * meets a field: URL values are strings, and the compiler decides how to compare them.
 */
export interface VariableValue {
  kind: 'variable';
  name: string;
  value: string;
  position: number;
}
