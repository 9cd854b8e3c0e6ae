import type { ComparisonOperator, Operand, Predicate } from './ast.js';
import { PredicateSyntaxError, positionOf } from './errors.js';
import { tokenize, type Token, type TokenKind } from './lexer.js';

/**
 * A recursive-descent parser for the platform's discount predicates (written from the documented
 * semantics; no public grammar exists). Precedence, loosest first: `or`, `and`, `not`, then one
 * condition: a comparison, `[not] in (…)`, `contains [any|all] …`, `is [not] defined|empty`, a
 * parenthesised predicate, or an operand standing alone (`true`, `lineItemExists(…)`).
 */
class Parser {
  private index = 0;

  constructor(
    private readonly source: string,
    private readonly tokens: readonly Token[],
  ) {}

  parse(): Predicate {
    if (this.peek().kind === 'end') this.fail('The predicate is empty', this.peek());
    const predicate = this.or();
    const rest = this.peek();
    if (rest.kind !== 'end') this.fail(`Unexpected '${rest.text}'`, rest);
    return predicate;
  }

  private peek(ahead = 0): Token {
    return this.tokens[Math.min(this.index + ahead, this.tokens.length - 1)] as Token;
  }

  private take(): Token {
    const token = this.peek();
    this.index += 1;
    return token;
  }

  private isKeyword(word: string, ahead = 0): boolean {
    const token = this.peek(ahead);
    return token.kind === 'keyword' && token.text === word;
  }

  private expect(kind: TokenKind, what: string): Token {
    const token = this.peek();
    if (token.kind !== kind) this.fail(`Expected ${what} but found ${describe(token)}`, token);
    return this.take();
  }

  private fail(reason: string, token: Token): never {
    throw new PredicateSyntaxError(reason, positionOf(this.source, token.offset));
  }

  private or(): Predicate {
    let left = this.and();
    while (this.isKeyword('or')) {
      this.take();
      left = { kind: 'or', left, right: this.and() };
    }
    return left;
  }

  private and(): Predicate {
    let left = this.unary();
    while (this.isKeyword('and')) {
      this.take();
      left = { kind: 'and', left, right: this.unary() };
    }
    return left;
  }

  private unary(): Predicate {
    if (this.isKeyword('not')) {
      this.take();
      return { kind: 'not', operand: this.unary() };
    }
    return this.primary();
  }

  private primary(): Predicate {
    if (this.peek().kind === 'lparen') {
      this.take();
      const inner = this.or();
      this.expect('rparen', "')'");
      return inner;
    }
    const operand = this.operand();
    return this.condition(operand);
  }

  private condition(operand: Operand): Predicate {
    const token = this.peek();
    const offset = operand.offset;
    if (token.kind === 'operator') {
      this.take();
      return { kind: 'compare', operator: token.text as ComparisonOperator, left: operand, right: this.operand(), offset };
    }
    if (this.isKeyword('not') && this.isKeyword('in', 1)) {
      this.index += 2;
      return { kind: 'in', negated: true, operand, values: this.list(), offset };
    }
    if (this.isKeyword('in')) {
      this.take();
      return { kind: 'in', negated: false, operand, values: this.list(), offset };
    }
    if (this.isKeyword('contains')) return this.contains(operand);
    if (this.isKeyword('is')) return this.is(operand);
    return { kind: 'truth', operand, offset };
  }

  private contains(operand: Operand): Predicate {
    this.take();
    const mode = this.isKeyword('any') ? 'any' : this.isKeyword('all') ? 'all' : 'one';
    if (mode !== 'one') this.take();
    const values = mode === 'one' && this.peek().kind !== 'lparen' ? [this.operand()] : this.list();
    if (mode === 'one' && values.length !== 1) this.fail("'contains' takes one value; use 'contains any' or 'contains all' for a list", this.peek());
    return { kind: 'contains', mode, operand, values, offset: operand.offset };
  }

  private is(operand: Operand): Predicate {
    this.take();
    const negated = this.isKeyword('not');
    if (negated) this.take();
    const word = this.peek();
    if (this.isKeyword('defined') || this.isKeyword('empty')) {
      this.take();
      return { kind: word.text as 'defined' | 'empty', negated, operand, offset: operand.offset };
    }
    return this.fail(`Expected 'defined' or 'empty' after 'is' but found ${describe(word)}`, word);
  }

  /** `(value, value, …)`: at least one value. */
  private list(): Operand[] {
    this.expect('lparen', "'(' opening a list of values");
    const values = [this.operand()];
    while (this.peek().kind === 'comma') {
      this.take();
      values.push(this.operand());
    }
    this.expect('rparen', "')' closing the list of values");
    return values;
  }

  private operand(): Operand {
    const token = this.peek();
    switch (token.kind) {
      case 'string':
        this.take();
        return { kind: 'literal', value: token.text, offset: token.offset };
      case 'number':
        this.take();
        return { kind: 'literal', value: Number(token.text), offset: token.offset };
      case 'keyword':
        if (token.text === 'true' || token.text === 'false') {
          this.take();
          return { kind: 'literal', value: token.text === 'true', offset: token.offset };
        }
        return this.fail(`Expected a value or a field but found ${describe(token)}`, token);
      case 'identifier':
        return this.fieldOrCall();
      default:
        return this.fail(`Expected a value or a field but found ${describe(token)}`, token);
    }
  }

  private fieldOrCall(): Operand {
    const first = this.take();
    if (this.peek().kind === 'lparen') {
      this.take();
      const argument = this.or();
      this.expect('rparen', `')' closing ${first.text}(`);
      return { kind: 'call', name: first.text, argument, offset: first.offset };
    }
    const path = [first.text];
    while (this.peek().kind === 'dot') {
      this.take();
      const segment = this.peek();
      // After a dot a keyword is a name like any other (`custom.all`, `attributes.empty`).
      if (segment.kind !== 'identifier' && segment.kind !== 'keyword' && segment.kind !== 'number') {
        this.fail(`Expected a field name after '.' but found ${describe(segment)}`, segment);
      }
      path.push(this.take().text);
    }
    return { kind: 'field', path, offset: first.offset };
  }
}

function describe(token: Token): string {
  return token.kind === 'end' ? 'the end of the predicate' : `'${token.text}'`;
}

/** Parses `source` into a syntax tree; throws PredicateSyntaxError naming the position. */
export function parsePredicate(source: string): Predicate {
  return new Parser(source, tokenize(source)).parse();
}
