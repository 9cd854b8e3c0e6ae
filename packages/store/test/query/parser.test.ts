import { ApiError } from '@herald/model';
import { describe, expect, it } from 'vitest';
import type { FieldPredicate, Operand, Predicate } from '../../src/query/ast.js';
import { MAX_LIST_VALUES, MAX_NESTING_DEPTH, MAX_PREDICATE_LENGTH } from '../../src/query/limits.js';
import { parsePredicate, type Variables } from '../../src/query/parser.js';

/** A compact rendering of the tree, so that expectations read like the predicates they test. */
function show(predicate: Predicate): string {
  switch (predicate.kind) {
    case 'and':
      return `and(${predicate.operands.map(show).join(', ')})`;
    case 'or':
      return `or(${predicate.operands.map(show).join(', ')})`;
    case 'not':
      return `not(${show(predicate.operand)})`;
    case 'field':
      return showField(predicate);
  }
}

function showField({ field, test }: FieldPredicate): string {
  switch (test.kind) {
    case 'compare':
      return `${field} ${test.operator} ${showOperand(test.value)}`;
    case 'in':
      return `${field} ${test.negated ? 'not in' : 'in'} [${test.values.map(showOperand).join(', ')}]`;
    case 'contains':
      return `${field} contains ${test.mode} [${test.values.map(showOperand).join(', ')}]`;
    case 'empty':
      return `${field} is ${test.negated ? 'not ' : ''}empty`;
    case 'defined':
      return `${field} is ${test.negated ? 'not ' : ''}defined`;
    case 'nested':
      return `${field}{${show(test.predicate)}}`;
    case 'withinCircle':
      return `${field} within circle(${test.circle.longitude}, ${test.circle.latitude}, ${test.circle.radius})`;
  }
}

function showOperand(operand: Operand): string {
  switch (operand.kind) {
    case 'string':
      return JSON.stringify(operand.value);
    case 'number':
      return `#${operand.text}`;
    case 'boolean':
      return String(operand.value);
    case 'variable':
      return `:${operand.name}=${JSON.stringify(operand.value)}`;
  }
}

const parse = (input: string, vars: Variables = {}): string => show(parsePredicate(input, vars));

function parseError(input: string, vars: Variables = {}): ApiError {
  try {
    parsePredicate(input, vars);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.statusCode).toBe(400);
    expect(apiError.code).toBe('InvalidInput');
    return apiError;
  }
  throw new Error(`expected ${JSON.stringify(input)} to be rejected`);
}

/** Asserts the error names `position` (in the message and as a field) and says `fragment`. */
function expectErrorAt(input: string, position: number, fragment: string, vars: Variables = {}): void {
  const error = parseError(input, vars);
  expect(error.message).toContain(`at position ${position}:`);
  expect(error.errors[0]?.position).toBe(position);
  expect(error.message).toContain(fragment);
}

describe('precedence and grouping', () => {
  it('binds and tighter than or', () => {
    expect(parse('a = 1 or b = 2 and c = 3')).toBe('or(a = #1, and(b = #2, c = #3))');
    expect(parse('a = 1 and b = 2 or c = 3')).toBe('or(and(a = #1, b = #2), c = #3)');
  });

  it('lets parentheses override precedence', () => {
    expect(parse('(a = 1 or b = 2) and c = 3')).toBe('and(or(a = #1, b = #2), c = #3)');
    expect(parse('((a = 1))')).toBe('a = #1');
  });

  it('flattens chains into one n-ary node', () => {
    expect(parse('a = 1 or a = 2 or a = 3 or a = 4')).toBe('or(a = #1, a = #2, a = #3, a = #4)');
    expect(parse('a = 1 and a = 2 and a = 3')).toBe('and(a = #1, a = #2, a = #3)');
  });

  it('parses not(…) as negation of a whole predicate', () => {
    expect(parse('not(a = 1 or b = 2) and c = 3')).toBe('and(not(or(a = #1, b = #2)), c = #3)');
    expect(parse('not (a = 1)')).toBe('not(a = #1)');
  });

  it('treats keywords as field names where a field is expected', () => {
    expect(parse('not = 1')).toBe('not = #1');
    expect(parse('and = 1 and or = 2')).toBe('and(and = #1, or = #2)');
    expect(parse('in in ("x")')).toBe('in in ["x"]');
  });
});

describe('operators', () => {
  it('parses every comparison operator and reads <> as !=', () => {
    expect(parse('a = 1 and b != 2 and c <> 3 and d < 4 and e <= 5 and f > 6 and g >= 7')).toBe(
      'and(a = #1, b != #2, c != #3, d < #4, e <= #5, f > #6, g >= #7)',
    );
  });

  it('needs no spaces around operators', () => {
    expect(parse('a>=1 and b<>"x"')).toBe('and(a >= #1, b != "x")');
  });

  it('parses in, not in, contains any/all and the is forms', () => {
    expect(parse('key in ("a", "b")')).toBe('key in ["a", "b"]');
    expect(parse('key not in ("a")')).toBe('key not in ["a"]');
    expect(parse('tags contains any ("a", 1)')).toBe('tags contains any ["a", #1]');
    expect(parse('tags contains all ("a", true)')).toBe('tags contains all ["a", true]');
    expect(parse('tags is empty or tags is not empty')).toBe('or(tags is empty, tags is not empty)');
    expect(parse('x is defined and x is not defined')).toBe('and(x is defined, x is not defined)');
  });

  it('parses within circle(longitude, latitude, radius) from numbers and numeric variables', () => {
    expect(parse('geoLocation within circle(13.37774, 52.51627, 1000)')).toBe('geoLocation within circle(13.37774, 52.51627, 1000)');
    expect(parse('g WITHIN Circle (-180,-90,1e-3) and key = "x"')).toBe('and(g within circle(-180, -90, 0.001), key = "x")');
    expect(parse('g within circle(:lng, :lat, :r)', { lng: ['180'], lat: ['90'], r: ['5.5'] })).toBe('g within circle(180, 90, 5.5)');
  });

  it('reads keywords case-insensitively but field names case-sensitively', () => {
    expect(parse('A = TRUE AND b = False OR NOT(c IS NOT DEFINED)')).toBe('or(and(A = true, b = false), not(c is not defined))');
    expect(parse('Key NOT IN ("x") and Tags CONTAINS ALL ("y") and t Is Empty')).toBe('and(Key not in ["x"], Tags contains all ["y"], t is empty)');
  });

  it('parses nested predicates over objects and arrays', () => {
    expect(parse('name(en = "x")')).toBe('name{en = "x"}');
    expect(parse('lineItems(quantity > 2 and name(en = "a"))')).toBe('lineItems{and(quantity > #2, name{en = "a"})}');
    expect(parse('custom(fields(size = 3))')).toBe('custom{fields{size = #3}}');
    expect(parse('a(not(b = 1) or (c is empty))')).toBe('a{or(not(b = #1), c is empty)}');
  });
});

// Types accept custom field names of `^[A-Za-z0-9_-]{2,36}$`: each must be usable in a predicate.
describe('field names a Type accepts', () => {
  it('reads names with "-" and a leading digit as one field name', () => {
    expect(parse('custom(fields(my-size = 3))')).toBe('custom{fields{my-size = #3}}');
    expect(parse('custom(fields(2nd = 3 and 3d-size>-1 and a-b_c-9 is defined))')).toBe('custom{fields{and(2nd = #3, 3d-size > #-1, a-b_c-9 is defined)}}');
    expect(parse('name(de-CH = "x")')).toBe('name{de-CH = "x"}');
  });

  it('still reads numbers as numbers where a value is expected', () => {
    expect(parse('a = 12 and b = 1e-5 and c = 2.5 and d=-3')).toBe('and(a = #12, b = #1e-5, c = #2.5, d = #-3)');
    // Right after an operator a digit starts a number: `1and` is 1 and the keyword.
    expect(parse('version=1and b=2')).toBe('and(version = #1, b = #2)');
    expectErrorAt('a = 2nd', 5, 'found "nd"');
    // A name directly followed by a number fits no predicate, so "-" after a name is part of it.
    expectErrorAt('size-1 = 2 and x = 1-2', 20, 'found the number -2');
  });

  it('reads any such name in backticks, never as a keyword', () => {
    expect(parse('custom(fields(`12` = 1 and `-x` = 2 and `size-` = 3 and `a--b` = 4))')).toBe('custom{fields{and(12 = #1, -x = #2, size- = #3, a--b = #4)}}');
    expect(parse('`not`(`and` = 1) and `in` in (1)')).toBe('and(not{and = #1}, in in [#1])');
  });

  it('rejects empty, unterminated and non-name backtick names', () => {
    expectErrorAt('a = 1 and `` = 1', 10, 'cannot be empty');
    expectErrorAt('a = 1 and `abc', 10, 'unterminated quoted field name');
    expectErrorAt('`abc = 1', 4, 'only letters, digits');
    expectErrorAt('`a.b` = 1', 2, 'only letters, digits');
    expectErrorAt('`a"` = 1', 2, 'only letters, digits');
  });
});

describe('literals', () => {
  it('reads negative numbers, decimals and exponents, without leading zeros', () => {
    expect(parse('a = -1')).toBe('a = #-1');
    expect(parse('a = -1.25')).toBe('a = #-1.25');
    expect(parse('a = 0.5e-3 and b = 2E+10 and c = 007 and d = -0')).toBe('and(a = #0.5e-3, b = #2e+10, c = #7, d = #-0)');
    const field = parsePredicate('a = -12.5') as FieldPredicate;
    expect(field.test).toMatchObject({ kind: 'compare', value: { kind: 'number', value: -12.5 } });
  });

  it('decodes string escapes', () => {
    const field = parsePredicate(String.raw`a = "q\"b\\s\/n\nt\tr\rb\bf\fé\u00e9 \ud83d\ude00"`) as FieldPredicate;
    expect(field.test).toMatchObject({ value: { kind: 'string', value: 'q"b\\s/n\nt\tr\rb\bf\féé 😀' } });
  });

  it('keeps unicode and SQL-looking text as plain string content', () => {
    const field = parsePredicate(`a = "'; DROP TABLE resources; -- 名前"`) as FieldPredicate;
    expect(field.test).toMatchObject({ value: { value: "'; DROP TABLE resources; -- 名前" } });
  });

  it('rejects bad escapes, lone surrogates and unterminated strings at their position', () => {
    expectErrorAt(String.raw`a = "x\q"`, 6, 'unknown escape sequence');
    expectErrorAt(String.raw`a = "x\u12G4"`, 6, 'four hexadecimal digits');
    expectErrorAt(String.raw`a = "\ud800"`, 4, 'unpaired UTF-16 surrogates');
    expectErrorAt(`a = "x\udc00"`, 4, 'unpaired UTF-16 surrogates');
    expectErrorAt('a = "abc', 4, 'unterminated string');
  });

  it('rejects numbers it could not compare exactly', () => {
    expectErrorAt('a = 1e400', 4, 'out of range');
    expectErrorAt('a = 1e-1000', 4, 'out of range');
    expectErrorAt(`a = ${'9'.repeat(65)}`, 4, 'out of range');
    expectErrorAt('a = -x', 4, 'expected a digit after "-"');
  });

  it('rejects NUL characters anywhere', () => {
    expectErrorAt('a = 1\u0000', 5, 'unexpected character');
    expectErrorAt('a = "x\u0000"', 4, 'NUL');
    expectErrorAt(String.raw`a = "x\u0000"`, 4, 'NUL');
  });
});

describe('variables', () => {
  it('binds a single value in a comparison', () => {
    expect(parse('key = :k', { k: ['abc'] })).toBe('key = :k="abc"');
  });

  it('expands a repeated variable into a list, also inside parentheses', () => {
    expect(parse('key in :keys', { keys: ['a', 'b'] })).toBe('key in [:keys="a", :keys="b"]');
    expect(parse('tags contains any :v', { v: ['x'] })).toBe('tags contains any [:v="x"]');
    expect(parse('key in ("z", :keys)', { keys: ['a', 'b'] })).toBe('key in ["z", :keys="a", :keys="b"]');
  });

  it('rejects unknown variables, naming the position', () => {
    expectErrorAt('a = 1 and key = :nope', 16, 'the variable :nope is not defined');
    expectErrorAt('a = :constructor', 4, 'not defined');
    expectErrorAt('a = :constructor2', 4, 'not defined');
  });

  it('accepts only letters and digits in variable names, as var.<name> parameters can carry (§4.1)', () => {
    expectErrorAt('a = :__proto__', 5, 'letters and digits');
    expectErrorAt('a = :a_b', 6, 'letters and digits', { a: ['1'] });
  });

  it('rejects a list variable in a scalar comparison and an empty variable', () => {
    expectErrorAt('a = :v', 4, 'has 2 values', { v: ['1', '2'] });
    expectErrorAt('a in :v', 5, 'has no value', { v: [] });
  });

  it('rejects variable values PostgreSQL cannot hold', () => {
    expectErrorAt('a = :v', 4, 'NUL', { v: ['a\u0000b'] });
    expectErrorAt('a = :v', 4, 'surrogates', { v: ['\ud800'] });
  });

  it('rejects a colon without a name', () => {
    expectErrorAt('a = : x', 5, 'expected a variable name');
  });
});

describe('syntax errors name the position and what was expected', () => {
  it.each([
    ['', 0, 'expected a field name'],
    ['   ', 3, 'expected a field name'],
    ['name = ', 7, 'expected a value'],
    ['a == 1', 3, 'expected a value'],
    ['a = 1 b = 2', 6, 'expected "and", "or" or the end'],
    ['(a = 1', 6, 'expected ")"'],
    ['a = 1)', 5, 'expected "and", "or" or the end'],
    ['a = 1 and', 9, 'expected a field name'],
    ['a = 1 or or b = 2', 12, 'expected an operator'],
    ['a ! 1', 2, '"!"'],
    ['a 1', 2, 'expected an operator'],
    ['a in ()', 6, 'expected a value'],
    ['a in ("x" "y")', 10, 'expected "," or ")"'],
    ['a in "x"', 5, 'expected a list of values'],
    ['a not = 1', 6, 'expected "in"'],
    ['a contains ("x")', 11, 'expected "any" or "all"'],
    ['roles contains "InventorySupply"', 15, 'expected "any" or "all" after "contains" (for one value: contains any (value)) but found the string'],
    ['a is full', 5, 'expected "not", "empty" or "defined"'],
    ['a is not full', 9, 'expected "empty" or "defined"'],
    ['a within square(0, 0, 1)', 9, 'expected "circle" after "within"'],
    ['a within circle 0, 0, 1', 16, 'expected "("'],
    ['a within circle(0, 0)', 20, 'expected ","'],
    ['a within circle(0, 0, 1, 2)', 23, 'expected ")"'],
    ['a within circle("0", 0, 1)', 16, 'needs a number for the longitude, but found the string "0"'],
    ['a within circle(0, true, 1)', 19, 'needs a number for the latitude'],
    ['a within circle(181, 0, 1)', 16, 'the longitude must be between -180 and 180, got 181'],
    ['a within circle(-180.5, 0, 1)', 16, 'the longitude must be between -180 and 180'],
    ['a within circle(0, -90.5, 1)', 19, 'the latitude must be between -90 and 90, got -90.5'],
    ['a within circle(0, 0, 0)', 22, 'the radius (in meters) must be greater than 0, got 0'],
    ['a within circle(0, 0, -5)', 22, 'the radius (in meters) must be greater than 0'],
    ['a = x', 4, 'expected a value'],
    ['a = 1 and not(b = 2', 19, 'expected ")"'],
    ['a.b = 1', 1, 'unexpected character "."'],
    ['a = 1 ; DROP TABLE resources', 6, 'unexpected character ";"'],
    ["') or 1=1 --", 0, 'unexpected character'],
    ['"x" = a', 0, 'expected a field name'],
    ['a = \u{1F600}', 4, 'unexpected character "😀"'],
  ])('%j → position %i', (input, position, fragment) => {
    expectErrorAt(input, position, fragment);
  });

  it('names a variable of circle(…) that is no number or out of range', () => {
    expectErrorAt('a within circle(0, :lat, 1)', 19, 'needs a number for the latitude, but found the variable :lat = "north"', { lat: ['north'] });
    expectErrorAt('a within circle(0, 0, :r)', 22, 'the radius (in meters) must be greater than 0', { r: ['-1'] });
    expectErrorAt('a within circle(:p, 0, 1)', 16, 'has 2 values but a comparison needs exactly one', { p: ['1', '2'] });
  });
});

describe('limits on hostile input', () => {
  it('accepts a predicate of exactly the maximum length and rejects a longer one', () => {
    const padding = (length: number) => `a = "${'x'.repeat(length - 6)}"`;
    expect(padding(MAX_PREDICATE_LENGTH)).toHaveLength(MAX_PREDICATE_LENGTH);
    expect(() => parsePredicate(padding(MAX_PREDICATE_LENGTH))).not.toThrow();
    expect(parseError(padding(MAX_PREDICATE_LENGTH + 1)).message).toContain('longer than 10000 characters');
  });

  it('accepts the maximum nesting depth and rejects one more, for each kind of nesting', () => {
    const parens = (depth: number) => `${'('.repeat(depth)}a = 1${')'.repeat(depth)}`;
    const nots = (depth: number) => `${'not('.repeat(depth)}a = 1${')'.repeat(depth)}`;
    const fields = (depth: number) => `${'a('.repeat(depth)}b = 1${')'.repeat(depth)}`;
    for (const build of [parens, nots, fields]) {
      expect(() => parsePredicate(build(MAX_NESTING_DEPTH))).not.toThrow();
      expect(parseError(build(MAX_NESTING_DEPTH + 1)).message).toContain(`nested more than ${MAX_NESTING_DEPTH} levels`);
    }
  });

  it('counts depth along a path, not in total', () => {
    const siblings = Array.from({ length: 200 }, () => '(a = 1)').join(' or ');
    expect(() => parsePredicate(siblings)).not.toThrow();
  });

  it('rejects very deep input without overflowing the stack', () => {
    expect(parseError('('.repeat(9_000)).message).toContain('nested more than');
    expect(parseError(`${'x('.repeat(4_900)}`).message).toContain('nested more than');
  });

  it('limits the number of values in a list', () => {
    const list = (n: number) => `a in (${Array.from({ length: n }, (_, i) => i).join(', ')})`;
    expect(() => parsePredicate(list(MAX_LIST_VALUES))).not.toThrow();
    expect(parseError(list(MAX_LIST_VALUES + 1)).message).toContain(`more than ${MAX_LIST_VALUES} values`);
    const many = Array.from({ length: MAX_LIST_VALUES + 1 }, (_, i) => String(i));
    expect(parseError('a in :v', { v: many }).message).toContain(`more than ${MAX_LIST_VALUES} values`);
  });

  it('parses a long flat chain into one node, without recursion per term', () => {
    const chain = Array.from({ length: 1_200 }, (_, i) => `a=${i % 10}`).join(' or ');
    expect(chain.length).toBeLessThanOrEqual(MAX_PREDICATE_LENGTH);
    const tree = parsePredicate(chain);
    expect(tree.kind === 'or' && tree.operands.length).toBe(1_200);
  });
});
