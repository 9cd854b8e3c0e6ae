/**
 * Splits a predicate into tokens in one left-to-right pass over the characters: no regular
 * expression runs over user input here, so there is nothing to backtrack catastrophically.
 *
 * Names (field names and keywords) are what a Type accepts as a field name, `[A-Za-z0-9_-]`:
 * - bare, when they start with a letter or `_` and every `-` is followed by a letter, digit or `_`
 *   (`size`, `my-size`, `a-b_c`); or when they start with a digit but are not just a number (`2nd`,
 *   `3d-size`), except right after an operator. A `-` inside a name is never a minus sign: no valid
 *   predicate has a name directly followed by a number.
 * - quoted in backticks, for every other such name (`` `12` ``, `` `-x` ``, `` `size-` ``). A quoted
 *   name is never a keyword (`` `and` = 1`` tests the field `and`).
 * Either way the name only ever becomes a jsonpath member string or one of the fixed column names.
 */
import { predicateError, quote } from './errors.js';
import { canonicalNumber, unsupportedTextReason } from './values.js';

export type Token =
  | { type: 'identifier'; text: string; position: number; quoted?: true }
  | { type: 'string'; value: string; position: number }
  | { type: 'number'; value: number; text: string; position: number }
  | { type: 'variable'; name: string; position: number }
  | { type: 'symbol'; text: '(' | ')' | ','; position: number }
  | { type: 'operator'; text: string; position: number }
  | { type: 'end'; position: number };

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isIdentifierStart = (c: string | undefined): boolean => c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_');
const isIdentifierPart = (c: string | undefined): boolean => isIdentifierStart(c) || isDigit(c);
const isNamePart = (c: string | undefined): boolean => isIdentifierPart(c) || c === '-';
const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

export function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input.charAt(i);
    if (isSpace(c)) {
      i++;
    } else if (c === '(' || c === ')' || c === ',') {
      tokens.push({ type: 'symbol', text: c, position: i });
      i++;
    } else if (c === '=') {
      tokens.push({ type: 'operator', text: '=', position: i });
      i++;
    } else if (c === '!' || c === '<' || c === '>') {
      const two = input.slice(i, i + 2);
      if (two === '!=' || two === '<>' || two === '<=' || two === '>=') {
        tokens.push({ type: 'operator', text: two, position: i });
        i += 2;
      } else if (c === '!') {
        throw predicateError(i, 'expected "!=" but found "!" alone');
      } else {
        tokens.push({ type: 'operator', text: c, position: i });
        i++;
      }
    } else if (c === '"') {
      const { value, end } = readString(input, i);
      tokens.push({ type: 'string', value, position: i });
      i = end;
    } else if (c === '`') {
      const end = quotedNameEnd(input, i);
      tokens.push({ type: 'identifier', text: input.slice(i + 1, end - 1), position: i, quoted: true });
      i = end;
    } else if (isDigit(c) && tokens.at(-1)?.type !== 'operator' && nameEnd(input, i) > numberEnd(input, i)) {
      // A name with a leading digit (`2nd`): longer than the number it starts with. Never right
      // after an operator, where a value is due and `1and` stays the number 1 and the keyword.
      const end = nameEnd(input, i);
      tokens.push({ type: 'identifier', text: input.slice(i, end), position: i });
      i = end;
    } else if (isDigit(c) || (c === '-' && isDigit(input[i + 1]))) {
      const end = numberEnd(input, i);
      const text = input.slice(i, end);
      const number = canonicalNumber(text);
      if (number === undefined) {
        throw predicateError(i, `the number ${quote(text)} is out of range (at most 64 characters, finite, exponent of at most 3 digits)`);
      }
      tokens.push({ type: 'number', value: number.value, text: number.text, position: i });
      i = end;
    } else if (c === '-') {
      throw predicateError(i, 'expected a digit after "-"');
    } else if (c === ':') {
      // Variable names are what `var.<name>` parameters can carry: letters and digits (§4.1).
      let end = i + 1;
      if (!isVariableNamePart(input[end])) throw predicateError(i + 1, 'expected a variable name (letters and digits) after ":"');
      while (isVariableNamePart(input[end])) end++;
      if (input[end] === '_') throw predicateError(end, 'variable names may contain only letters and digits');
      tokens.push({ type: 'variable', name: input.slice(i + 1, end), position: i });
      i = end;
    } else if (isIdentifierStart(c)) {
      const end = nameEnd(input, i);
      tokens.push({ type: 'identifier', text: input.slice(i, end), position: i });
      i = end;
    } else {
      throw predicateError(i, `unexpected character ${quote(String.fromCodePoint(input.codePointAt(i) ?? 0))}`);
    }
  }
  tokens.push({ type: 'end', position: input.length });
  return tokens;
}

/** A bare name from `start`: letters, digits, `_`, and `-` followed by one of those. */
function nameEnd(input: string, start: number): number {
  let i = start;
  while (isIdentifierPart(input[i]) || (input[i] === '-' && isIdentifierPart(input[i + 1]))) i++;
  return i;
}

/** A backtick-quoted name (`` `my-name` ``): one or more of `[A-Za-z0-9_-]`, no escapes. */
function quotedNameEnd(input: string, start: number): number {
  let i = start + 1;
  while (isNamePart(input[i])) i++;
  if (input[i] !== '`') {
    if (i >= input.length) throw predicateError(start, 'unterminated quoted field name (expected a closing "`")');
    throw predicateError(i, 'a quoted field name may contain only letters, digits, "_" and "-"');
  }
  if (i === start + 1) throw predicateError(start, 'a quoted field name cannot be empty');
  return i + 1;
}

/** `-?digits(.digits)?([eE][+-]?digits)?`, scanned by hand; returns the offset after the number. */
function numberEnd(input: string, start: number): number {
  let i = start;
  if (input[i] === '-') i++;
  while (isDigit(input[i])) i++;
  if (input[i] === '.' && isDigit(input[i + 1])) {
    i++;
    while (isDigit(input[i])) i++;
  }
  if (input[i] === 'e' || input[i] === 'E') {
    let j = i + 1;
    if (input[j] === '+' || input[j] === '-') j++;
    if (isDigit(input[j])) {
      while (isDigit(input[j])) j++;
      i = j;
    }
  }
  return i;
}

/** Reads a double-quoted string with JSON escapes; `start` is the offset of the opening quote. */
function readString(input: string, start: number): { value: string; end: number } {
  let value = '';
  let i = start + 1;
  for (;;) {
    if (i >= input.length) throw predicateError(start, "unterminated string (expected a closing '\"')");
    const c = input.charAt(i);
    if (c === '"') break;
    if (c !== '\\') {
      value += c;
      i++;
      continue;
    }
    const escape = input.charAt(i + 1);
    const simple = SIMPLE_ESCAPES[escape];
    if (simple !== undefined) {
      value += simple;
      i += 2;
    } else if (escape === 'u') {
      const hex = input.slice(i + 2, i + 6);
      if (!/^[0-9A-Fa-f]{4}$/.test(hex)) throw predicateError(i, 'expected four hexadecimal digits after "\\u"');
      value += String.fromCharCode(parseInt(hex, 16));
      i += 6;
    } else {
      throw predicateError(i, `unknown escape sequence ${quote(`\\${escape}`)} (expected \\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX)`);
    }
  }
  const reason = unsupportedTextReason(value);
  if (reason !== undefined) throw predicateError(start, `invalid string: ${reason}`);
  return { value, end: i + 1 };
}

function isVariableNamePart(c: string | undefined): boolean {
  return c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'));
}
