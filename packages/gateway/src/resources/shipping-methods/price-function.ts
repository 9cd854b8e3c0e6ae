import { invalidInput } from '@herald/model';

/**
 * PriceFunction.function (types/shipping-method/PriceFunction.raml): "use `+`, `-`, `*` and
 * parentheses. The score is inserted with `x`. The function returns the cent amount." A small
 * recursive-descent reader: it validates a draft's function (matching needs no evaluation: a
 * function tier covers its score and every higher one).
 */
const MAX_FUNCTION_LENGTH = 256;
const TOKEN = /\s*(\d+|x|[-+*()])/y;

type Node =
  { kind: 'number'; value: number } | { kind: 'score' } | { kind: 'binary'; op: '+' | '-' | '*'; left: Node; right: Node } | { kind: 'negate'; operand: Node };

function tokens(source: string): string[] {
  const found: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length && source.slice(TOKEN.lastIndex).trim() !== '') {
    const match = TOKEN.exec(source);
    if (match === null) throw new Error(`unexpected character at position ${TOKEN.lastIndex}`);
    found.push(match[1] as string);
  }
  return found;
}

class Reader {
  private position = 0;
  constructor(private readonly items: readonly string[]) {}

  expression(): Node {
    let left = this.term();
    while (this.peek() === '+' || this.peek() === '-') {
      const op = this.next() as '+' | '-';
      left = { kind: 'binary', op, left, right: this.term() };
    }
    return left;
  }

  finished(): boolean {
    return this.position === this.items.length;
  }

  private term(): Node {
    let left = this.factor();
    while (this.peek() === '*') {
      this.next();
      left = { kind: 'binary', op: '*', left, right: this.factor() };
    }
    return left;
  }

  private factor(): Node {
    const item = this.next();
    if (item === '-') return { kind: 'negate', operand: this.factor() };
    if (item === 'x') return { kind: 'score' };
    if (item === '(') {
      const inner = this.expression();
      if (this.next() !== ')') throw new Error('a parenthesis is not closed');
      return inner;
    }
    if (item !== undefined && /^\d+$/.test(item)) return { kind: 'number', value: Number(item) };
    throw new Error(item === undefined ? 'the function ends too early' : `unexpected '${item}'`);
  }

  private peek(): string | undefined {
    return this.items[this.position];
  }

  private next(): string | undefined {
    return this.items[this.position++];
  }
}

function parse(source: string): Node {
  const reader = new Reader(tokens(source));
  const node = reader.expression();
  if (!reader.finished()) throw new Error('unexpected text after the expression');
  return node;
}

/** Validates a function's text (400 InvalidInput naming what is wrong). */
export function priceFunctionText(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_FUNCTION_LENGTH) {
    throw invalidInput(`'${field}' must be a non-empty function of at most ${MAX_FUNCTION_LENGTH} characters.`, { field, invalidValue: value });
  }
  try {
    parse(value);
  } catch (error) {
    throw invalidInput(`'${field}' is not a valid price function: ${(error as Error).message}.`, { field, invalidValue: value });
  }
  return value;
}
