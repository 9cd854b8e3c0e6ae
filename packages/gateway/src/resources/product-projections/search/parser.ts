import { invalidInput, type ApiError } from '@herald/model';
import type { FacetExpression, FilterExpression, FilterTest, Range, RangeEnd, TermValue } from './expression.js';

/**
 * A reader of the search expression language (the reference's filter and facet syntax):
 *   filter: path ":" ( "missing" | "exists" | "range" ranges | values )
 *   ranges: "(" end "to" end ")" { "," "(" end "to" end ")" }, end: number | "text" | "*"
 *   values: value { "," value }, value: "text" | number | true | false | subtree("id")
 *   facet:  path [ ":" test ] [ "as" alias ] [ "counting products" ]
 * A malformed expression is a 400 InvalidInput naming the parameter and the position (0-based).
 */
class Scanner {
  position = 0;

  constructor(
    readonly text: string,
    private readonly parameter: string,
  ) {}

  error(expected: string): ApiError {
    const found = this.position < this.text.length ? `'${this.text.slice(this.position, this.position + 10)}'` : 'the end';
    return invalidInput(`Malformed ${this.parameter} expression '${this.text}': expected ${expected} at position ${this.position} but found ${found}.`, {
      parameter: this.parameter,
      position: this.position,
    });
  }

  skipSpaces(): number {
    const start = this.position;
    while (this.text[this.position] === ' ') this.position++;
    return this.position - start;
  }

  match(pattern: RegExp): string | undefined {
    const sticky = new RegExp(pattern.source, 'y');
    sticky.lastIndex = this.position;
    const found = sticky.exec(this.text);
    if (found === null) return undefined;
    this.position += found[0].length;
    return found[0];
  }

  expect(literal: string): void {
    if (!this.text.startsWith(literal, this.position)) throw this.error(`'${literal}'`);
    this.position += literal.length;
  }

  atEnd(): boolean {
    return this.position >= this.text.length;
  }
}

const SEGMENT = /[A-Za-z0-9_-]+/;
const NUMBER = /-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/;
const QUOTED = /"(?:[^"\\]|\\.)*"/;

function path(scanner: Scanner): string[] {
  const segments: string[] = [];
  do {
    const segment = scanner.match(SEGMENT);
    if (segment === undefined) throw scanner.error('a field name');
    segments.push(segment);
  } while (scanner.match(/\./) !== undefined);
  return segments;
}

function quoted(scanner: Scanner): string | undefined {
  const raw = scanner.match(QUOTED);
  return raw === undefined ? undefined : raw.slice(1, -1).replace(/\\(.)/g, '$1');
}

function rangeEnd(scanner: Scanner): RangeEnd {
  if (scanner.match(/\*/) !== undefined) return undefined;
  const text = quoted(scanner);
  if (text !== undefined) return { kind: 'string', value: text };
  const number = scanner.match(NUMBER);
  if (number !== undefined) return { kind: 'number', value: Number(number) };
  throw scanner.error('a number, a quoted value or *');
}

function range(scanner: Scanner): Range {
  const start = scanner.position;
  scanner.expect('(');
  scanner.skipSpaces();
  const from = rangeEnd(scanner);
  if (scanner.skipSpaces() === 0) throw scanner.error("' to '");
  scanner.expect('to');
  if (scanner.skipSpaces() === 0) throw scanner.error('a space after to');
  const to = rangeEnd(scanner);
  scanner.skipSpaces();
  scanner.expect(')');
  return { from, to, text: scanner.text.slice(start, scanner.position) };
}

function value(scanner: Scanner): TermValue {
  const text = quoted(scanner);
  if (text !== undefined) return { kind: 'string', value: text };
  if (scanner.match(/subtree\(/) !== undefined) {
    scanner.skipSpaces();
    const id = quoted(scanner);
    if (id === undefined) throw scanner.error('a quoted category id');
    scanner.skipSpaces();
    scanner.expect(')');
    return { kind: 'subtree', id };
  }
  const word = scanner.match(/true|false/);
  if (word !== undefined) return { kind: 'boolean', value: word === 'true' };
  const number = scanner.match(NUMBER);
  if (number !== undefined) return { kind: 'number', value: Number(number) };
  throw scanner.error('a quoted value, a number, true, false or subtree("…")');
}

/** Items separated by commas (spaces around them allowed). */
function list<T>(scanner: Scanner, item: (scanner: Scanner) => T): T[] {
  const items = [item(scanner)];
  for (;;) {
    const before = scanner.position;
    scanner.skipSpaces();
    if (scanner.match(/,/) === undefined) {
      scanner.position = before;
      return items;
    }
    scanner.skipSpaces();
    items.push(item(scanner));
  }
}

function test(scanner: Scanner): FilterTest {
  if (scanner.match(/missing(?![A-Za-z0-9_-])/) !== undefined) return { kind: 'missing' };
  if (scanner.match(/exists(?![A-Za-z0-9_-])/) !== undefined) return { kind: 'exists' };
  if (scanner.match(/range/) !== undefined) {
    scanner.skipSpaces();
    return { kind: 'ranges', ranges: list(scanner, range) };
  }
  return { kind: 'terms', values: list(scanner, value) };
}

export function parseFilter(text: string, parameter: string): FilterExpression {
  const scanner = new Scanner(text, parameter);
  const fields = path(scanner);
  scanner.expect(':');
  scanner.skipSpaces();
  const parsed = test(scanner);
  scanner.skipSpaces();
  if (!scanner.atEnd()) throw scanner.error('the end of the expression');
  return { path: fields, test: parsed, source: text };
}

const ALIAS = /[a-z][A-Za-z0-9_-]*/;

export function parseFacet(text: string): FacetExpression {
  const scanner = new Scanner(text, 'facet');
  const fields = path(scanner);
  let parsed: FilterTest | undefined;
  if (scanner.match(/:/) !== undefined) {
    scanner.skipSpaces();
    parsed = test(scanner);
  }
  let end = scanner.position;
  let alias: string | undefined;
  let countingProducts = false;
  while (!scanner.atEnd()) {
    if (scanner.skipSpaces() === 0) throw scanner.error("' as <alias>' or ' counting products'");
    if (alias === undefined && !countingProducts && scanner.match(/as /) !== undefined) {
      scanner.skipSpaces();
      alias = scanner.match(ALIAS);
      if (alias === undefined) throw scanner.error('an alias starting with a lower-case letter');
      end = scanner.position;
    } else if (!countingProducts && scanner.match(/counting +products/) !== undefined) {
      countingProducts = true;
    } else throw scanner.error("'as <alias>' or 'counting products'");
  }
  const kind = parsed === undefined ? 'terms' : parsed.kind === 'ranges' ? 'range' : parsed.kind === 'terms' ? 'filter' : undefined;
  if (kind === undefined) throw invalidInput(`Malformed facet expression '${text}': missing and exists are filters, not facets.`, { parameter: 'facet' });
  const name = alias ?? text.slice(0, end).trim();
  return { path: fields, kind, ...(parsed === undefined ? {} : { test: parsed }), name, countingProducts };
}
