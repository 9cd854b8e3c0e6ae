/** The syntax tree of a discount predicate, as the parser builds it. `offset` points into the source. */

export type Literal = string | number | boolean;

export type Operand =
  | { kind: 'literal'; value: Literal; offset: number }
  /** A field identifier such as `customer.email` or `attributes.size`. */
  | { kind: 'field'; path: string[]; offset: number }
  /** A function over items, e.g. `lineItemTotal(sku = "x")`: its argument is a predicate of another kind. */
  | { kind: 'call'; name: string; argument: Predicate; offset: number };

export type ComparisonOperator = '=' | '!=' | '<>' | '<' | '>' | '<=' | '>=';

export type Predicate =
  | { kind: 'and' | 'or'; left: Predicate; right: Predicate }
  | { kind: 'not'; operand: Predicate }
  | { kind: 'compare'; operator: ComparisonOperator; left: Operand; right: Operand; offset: number }
  | { kind: 'in'; negated: boolean; operand: Operand; values: Operand[]; offset: number }
  | { kind: 'contains'; mode: 'one' | 'any' | 'all'; operand: Operand; values: Operand[]; offset: number }
  | { kind: 'defined' | 'empty'; negated: boolean; operand: Operand; offset: number }
  /** An operand standing alone: `true`, `lineItemExists(…)`, a boolean field. */
  | { kind: 'truth'; operand: Operand; offset: number };
