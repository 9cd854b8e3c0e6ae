/**
 * Recursive-descent parser of query predicates (§4.4), commercetools style:
 *
 *   predicate  := conjunction ("or" conjunction)*
 *   conjunction:= unary ("and" unary)*                  -- "and" binds tighter than "or"
 *   unary      := "not" "(" predicate ")" | "(" predicate ")" | field test
 *   test       := "(" predicate ")"                      -- nested: name(en = "x")
 *               | operator operand                       -- = != <> < <= > >=
 *               | ["not"] "in" list
 *               | "contains" ("any" | "all") list
 *               | "is" ["not"] ("empty" | "defined")
 *               | "within" "circle" "(" number "," number "," number ")"   -- see geo.ts
 *   list       := "(" operand ("," operand)* ")" | variable
 *   operand    := string | number | "true" | "false" | variable
 *   field      := name | "`" name "`"                   -- name: [A-Za-z0-9_-]+, see tokenizer.ts
 *
 * Keywords are case-insensitive; field names are case-sensitive, and may be any name a Type
 * accepts for a custom field: `my-size` and `2nd` bare, `` `12` `` or `` `-x` `` quoted. Only the
 * three grouping forms recurse, and each one counts against MAX_NESTING_DEPTH before it recurses,
 * so a hostile input cannot overflow the stack; `and`/`or` chains are loops.
 */
import type { ApiError } from '@herald/model';
import type { Circle, ComparisonOperator, FieldTest, Operand, Predicate, VariableValue } from './ast.js';
import { predicateError, quote } from './errors.js';
import { circleProblem } from './geo.js';
import { MAX_LIST_VALUES, MAX_NESTING_DEPTH, MAX_PREDICATE_LENGTH, MAX_QUERY_VALUES } from './limits.js';
import { type Token, tokenize } from './tokenizer.js';
import { canonicalNumber, unsupportedTextReason } from './values.js';

/** `var.<name>` parameters keyed by name; a repeated parameter is a list. */
export type Variables = Readonly<Record<string, readonly string[]>>;

/** Parses one `where` value; throws a 400 InvalidInput that names the position on any error. */
/** How many more values (MAX_QUERY_VALUES) the predicates of one request may hold; shared by them. */
export interface ValueBudget {
  remaining: number;
}

export function parsePredicate(input: string, vars: Variables = {}, budget: ValueBudget = { remaining: MAX_QUERY_VALUES }): Predicate {
  if (input.length > MAX_PREDICATE_LENGTH) {
    throw predicateError(MAX_PREDICATE_LENGTH, `the predicate is longer than ${MAX_PREDICATE_LENGTH} characters`);
  }
  return new Parser(tokenize(input), vars, budget).parse();
}

class Parser {
  private index = 0;
  private depth = 0;

  constructor(
    private readonly tokens: readonly Token[],
    private readonly vars: Variables,
    private readonly budget: ValueBudget,
  ) {}

  parse(): Predicate {
    const predicate = this.disjunction();
    const token = this.peek();
    if (token.type !== 'end') throw this.expected('"and", "or" or the end of the predicate', token);
    return predicate;
  }

  private disjunction(): Predicate {
    const operands = [this.conjunction()];
    while (this.peekKeyword('or')) {
      this.index++;
      operands.push(this.conjunction());
    }
    return operands.length === 1 ? (operands[0] as Predicate) : { kind: 'or', operands };
  }

  private conjunction(): Predicate {
    const operands = [this.unary()];
    while (this.peekKeyword('and')) {
      this.index++;
      operands.push(this.unary());
    }
    return operands.length === 1 ? (operands[0] as Predicate) : { kind: 'and', operands };
  }

  private unary(): Predicate {
    const token = this.peek();
    if (token.type === 'symbol' && token.text === '(') {
      return this.group(token.position, () => this.disjunction());
    }
    if (token.type === 'identifier') {
      const following = this.tokens[this.index + 1];
      if (isKeyword(token, 'not') && following?.type === 'symbol' && following.text === '(') {
        this.index++;
        return this.group(following.position, () => ({ kind: 'not', operand: this.disjunction() }));
      }
      this.index++;
      return { kind: 'field', field: token.text, position: token.position, test: this.test(token.text) };
    }
    throw this.expected('a field name, "not(" or "("', token);
  }

  /** Parses `( inner )` at the current token, counting one level of nesting. */
  private group<T>(position: number, inner: () => T): T {
    if (this.depth >= MAX_NESTING_DEPTH) {
      throw predicateError(position, `the predicate is nested more than ${MAX_NESTING_DEPTH} levels deep`);
    }
    this.depth++;
    this.index++; // the "("
    const result = inner();
    this.expectSymbol(')');
    this.depth--;
    return result;
  }

  private test(field: string): FieldTest {
    const token = this.peek();
    if (token.type === 'symbol' && token.text === '(') {
      return this.group(token.position, () => ({ kind: 'nested', predicate: this.disjunction() }));
    }
    if (token.type === 'operator') {
      this.index++;
      const operator: ComparisonOperator = token.text === '<>' ? '!=' : (token.text as ComparisonOperator);
      return { kind: 'compare', operator, value: this.scalarOperand() };
    }
    if (isKeyword(token, 'in')) {
      this.index++;
      return { kind: 'in', negated: false, values: this.list() };
    }
    if (isKeyword(token, 'not')) {
      this.index++;
      this.expectKeyword('in');
      return { kind: 'in', negated: true, values: this.list() };
    }
    if (isKeyword(token, 'contains')) {
      this.index++;
      const mode = this.peek();
      if (!isKeyword(mode, 'any') && !isKeyword(mode, 'all')) {
        // The reference's predicates have only these two forms: a lone value is no shorthand for any.
        const hint = mode.type === 'string' || mode.type === 'number' || mode.type === 'variable' ? ' (for one value: contains any (value))' : '';
        throw this.expected(`"any" or "all" after "contains"${hint}`, mode);
      }
      this.index++;
      return { kind: 'contains', mode: isKeyword(mode, 'any') ? 'any' : 'all', values: this.list() };
    }
    if (isKeyword(token, 'is')) {
      this.index++;
      const negated = this.peekKeyword('not');
      if (negated) this.index++;
      const what = this.peek();
      if (isKeyword(what, 'empty')) {
        this.index++;
        return { kind: 'empty', negated };
      }
      if (isKeyword(what, 'defined')) {
        this.index++;
        return { kind: 'defined', negated };
      }
      throw this.expected(negated ? '"empty" or "defined" after "is not"' : '"not", "empty" or "defined" after "is"', what);
    }
    if (isKeyword(token, 'within')) {
      this.index++;
      return { kind: 'withinCircle', circle: this.circle() };
    }
    throw this.expected(`an operator (=, !=, <>, <, <=, >, >=), "in", "not in", "contains", "is", "within" or "(" after the field ${quote(field)}`, token);
  }

  /** `circle(longitude, latitude, radius)` after "within", each a number in range (geo.ts). */
  private circle(): Circle {
    const shape = this.peek();
    if (!isKeyword(shape, 'circle')) throw this.expected('"circle" after "within"', shape);
    this.index++;
    this.expectSymbol('(');
    const longitude = this.coordinate('longitude');
    this.expectSymbol(',');
    const latitude = this.coordinate('latitude');
    this.expectSymbol(',');
    const radius = this.coordinate('radius');
    this.expectSymbol(')');
    const circle = { longitude: longitude.value, latitude: latitude.value, radius: radius.value };
    const problem = circleProblem(circle);
    if (problem !== undefined) {
      const position = { longitude, latitude, radius }[problem.argument].position;
      throw predicateError(position, `within circle(longitude, latitude, radius): ${problem.reason}`);
    }
    return circle;
  }

  /** One number of `circle(…)`: a number literal, or a variable whose text is a number. */
  private coordinate(name: keyof Circle): { value: number; position: number } {
    const operand = this.scalarOperand();
    if (operand.kind === 'number') return { value: operand.value, position: operand.position };
    const number = operand.kind === 'variable' ? canonicalNumber(operand.value) : undefined;
    if (number !== undefined) return { value: number.value, position: operand.position };
    throw predicateError(operand.position, `within circle(longitude, latitude, radius) needs a number for the ${name}, but found ${describeOperand(operand)}`);
  }

  /** A single value: a variable here must have exactly one value. */
  private scalarOperand(): Operand {
    const token = this.peek();
    if (token.type === 'variable') {
      this.index++;
      const values = this.variable(token.name, token.position);
      if (values.length !== 1) {
        throw predicateError(token.position, `the variable :${token.name} has ${values.length} values but a comparison needs exactly one`);
      }
      return values[0] as VariableValue;
    }
    return this.literal();
  }

  private literal(): Operand {
    const token = this.peek();
    this.spend(1, token.position);
    if (token.type === 'string') {
      this.index++;
      return { kind: 'string', value: token.value, position: token.position };
    }
    if (token.type === 'number') {
      this.index++;
      return { kind: 'number', value: token.value, text: token.text, position: token.position };
    }
    if (isKeyword(token, 'true') || isKeyword(token, 'false')) {
      this.index++;
      return { kind: 'boolean', value: isKeyword(token, 'true'), position: token.position };
    }
    throw this.expected('a value (a "string", a number, true, false or a :variable)', token);
  }

  /** `(a, b, …)` or a variable; every value of a variable joins the list. */
  private list(): Operand[] {
    const token = this.peek();
    let values: Operand[];
    if (token.type === 'variable') {
      this.index++;
      values = this.variable(token.name, token.position);
    } else if (token.type === 'symbol' && token.text === '(') {
      this.index++;
      values = [];
      for (;;) {
        const item = this.peek();
        if (item.type === 'variable') {
          this.index++;
          values.push(...this.variable(item.name, item.position));
        } else {
          values.push(this.literal());
        }
        if (values.length > MAX_LIST_VALUES) break;
        const separator = this.peek();
        if (separator.type === 'symbol' && separator.text === ',') {
          this.index++;
          continue;
        }
        if (separator.type === 'symbol' && separator.text === ')') {
          this.index++;
          break;
        }
        throw this.expected('"," or ")" in the list of values', separator);
      }
    } else {
      throw this.expected('a list of values in parentheses or a :variable', token);
    }
    if (values.length > MAX_LIST_VALUES) {
      throw predicateError(token.position, `the list has more than ${MAX_LIST_VALUES} values`);
    }
    return values;
  }

  private variable(name: string, position: number): VariableValue[] {
    const values = Object.hasOwn(this.vars, name) ? this.vars[name] : undefined;
    if (values === undefined) throw predicateError(position, `the variable :${name} is not defined (no var.${name} parameter)`);
    if (values.length === 0) throw predicateError(position, `the variable :${name} has no value`);
    if (values.length > MAX_LIST_VALUES) {
      throw predicateError(position, `the variable :${name} has more than ${MAX_LIST_VALUES} values`);
    }
    this.spend(values.length, position);
    return values.map((value) => {
      const reason = unsupportedTextReason(value);
      if (reason !== undefined) throw predicateError(position, `the value of the variable :${name} is invalid: ${reason}`);
      return { kind: 'variable', name, value, position };
    });
  }

  private spend(values: number, position: number): void {
    this.budget.remaining -= values;
    if (this.budget.remaining < 0) {
      throw predicateError(position, `the query has more than ${MAX_QUERY_VALUES} values (each use of a variable counts all of its values)`);
    }
  }

  private peek(): Token {
    // The token list always ends with an `end` token and the index never passes it.
    return this.tokens[this.index] ?? { type: 'end', position: 0 };
  }

  private peekKeyword(keyword: string): boolean {
    return isKeyword(this.peek(), keyword);
  }

  private expectKeyword(keyword: string): void {
    const token = this.peek();
    if (!isKeyword(token, keyword)) throw this.expected(`"${keyword}"`, token);
    this.index++;
  }

  private expectSymbol(symbol: '(' | ')' | ','): void {
    const token = this.peek();
    if (token.type !== 'symbol' || token.text !== symbol) throw this.expected(`"${symbol}"`, token);
    this.index++;
  }

  private expected(what: string, found: Token): ApiError {
    return predicateError(found.position, `expected ${what} but found ${describe(found)}`);
  }
}

function isKeyword(token: Token, keyword: string): boolean {
  // A quoted name is always a field name: `` `not`(…) `` is the field `not`.
  return token.type === 'identifier' && token.quoted !== true && token.text.length === keyword.length && token.text.toLowerCase() === keyword;
}

function describeOperand(operand: Operand): string {
  switch (operand.kind) {
    case 'string':
      return `the string ${quote(operand.value)}`;
    case 'boolean':
      return String(operand.value);
    case 'number':
      return `the number ${operand.text}`;
    case 'variable':
      return `the variable :${operand.name} = ${quote(operand.value)}`;
  }
}

function describe(token: Token): string {
  switch (token.type) {
    case 'end':
      return 'the end of the predicate';
    case 'identifier':
      return quote(token.text);
    case 'string':
      return `the string ${quote(token.value)}`;
    case 'number':
      return `the number ${token.text}`;
    case 'variable':
      return `the variable :${token.name}`;
    case 'symbol':
    case 'operator':
      return `"${token.text}"`;
  }
}
