import { PredicateSyntaxError, positionOf } from './errors.js';

/**
 * Tokens of the discount predicate language (the platform's "Discount Predicates": field
 * identifiers, operators and values). Keywords are matched without regard to case.
 */
export type TokenKind = 'identifier' | 'string' | 'number' | 'keyword' | 'operator' | 'lparen' | 'rparen' | 'comma' | 'dot' | 'end';

export interface Token {
  kind: TokenKind;
  /** The text as written (strings: the unescaped value; keywords: lower case). */
  text: string;
  offset: number;
}

export const KEYWORDS = new Set(['and', 'or', 'not', 'in', 'contains', 'any', 'all', 'is', 'defined', 'empty', 'true', 'false']);

const OPERATORS = ['<=', '>=', '!=', '<>', '=', '<', '>'] as const;
const PUNCTUATION: Readonly<Record<string, TokenKind>> = { '(': 'lparen', ')': 'rparen', ',': 'comma', '.': 'dot' };
const IDENTIFIER_START = /[A-Za-z_]/;
const IDENTIFIER_PART = /[A-Za-z0-9_-]/;
const DIGIT = /[0-9]/;
const ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', n: '\n', t: '\t', r: '\r', "'": "'" };

class Lexer {
  private offset = 0;
  readonly tokens: Token[] = [];

  constructor(private readonly source: string) {}

  run(): Token[] {
    for (;;) {
      this.skipWhitespace();
      if (this.offset >= this.source.length) break;
      this.tokens.push(this.next());
    }
    this.tokens.push({ kind: 'end', text: '', offset: this.source.length });
    return this.tokens;
  }

  private fail(reason: string, offset = this.offset): never {
    throw new PredicateSyntaxError(reason, positionOf(this.source, offset));
  }

  private skipWhitespace(): void {
    while (this.offset < this.source.length && /\s/.test(this.source[this.offset] ?? '')) this.offset += 1;
  }

  private next(): Token {
    const start = this.offset;
    const char = this.source[start] ?? '';
    const punctuation = PUNCTUATION[char];
    if (punctuation !== undefined) {
      this.offset += 1;
      return { kind: punctuation, text: char, offset: start };
    }
    if (char === '"' || char === "'") return this.string(char);
    if (DIGIT.test(char) || (char === '-' && DIGIT.test(this.source[start + 1] ?? ''))) return this.number();
    if (IDENTIFIER_START.test(char)) return this.word();
    const operator = OPERATORS.find((candidate) => this.source.startsWith(candidate, start));
    if (operator !== undefined) {
      this.offset += operator.length;
      return { kind: 'operator', text: operator, offset: start };
    }
    return this.fail(`Unexpected character '${char}'`);
  }

  private string(quote: string): Token {
    const start = this.offset;
    let value = '';
    this.offset += 1;
    while (this.offset < this.source.length) {
      const char = this.source[this.offset] ?? '';
      if (char === quote) {
        this.offset += 1;
        return { kind: 'string', text: value, offset: start };
      }
      if (char === '\\') {
        const escaped = ESCAPES[this.source[this.offset + 1] ?? ''];
        if (escaped === undefined) this.fail('Unknown escape sequence in a string', this.offset);
        value += escaped;
        this.offset += 2;
      } else {
        value += char;
        this.offset += 1;
      }
    }
    return this.fail('Unterminated string', start);
  }

  private number(): Token {
    const start = this.offset;
    const match = /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.source.slice(start));
    const text = match?.[0] ?? '';
    this.offset += text.length;
    if (IDENTIFIER_START.test(this.source[this.offset] ?? '')) this.fail('A number must not run into a name', this.offset);
    return { kind: 'number', text, offset: start };
  }

  private word(): Token {
    const start = this.offset;
    while (this.offset < this.source.length && IDENTIFIER_PART.test(this.source[this.offset] ?? '')) this.offset += 1;
    const text = this.source.slice(start, this.offset);
    const lower = text.toLowerCase();
    return KEYWORDS.has(lower) ? { kind: 'keyword', text: lower, offset: start } : { kind: 'identifier', text, offset: start };
  }
}

/** Splits `source` into tokens, ending with an `end` token; throws PredicateSyntaxError with the position. */
export function tokenize(source: string): Token[] {
  return new Lexer(source).run();
}
