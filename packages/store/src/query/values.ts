/**
 * Validation of the values a predicate carries. Everything here runs before SQL is built, so that a
 * value PostgreSQL would reject (a NUL byte in text, a lone surrogate in jsonpath, a timestamp out
 * of range, a number that overflows `numeric`) is a 400 for the user and never a 500.
 */
import { MAX_NUMBER_LENGTH } from './limits.js';

/** Why a string cannot be stored or compared by PostgreSQL, or undefined when it can. */
export function unsupportedTextReason(text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // PostgreSQL text and jsonb cannot hold U+0000.
    if (code === 0) return 'NUL characters are not supported';
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      return 'unpaired UTF-16 surrogates are not supported';
    }
    if (code >= 0xdc00 && code <= 0xdfff) return 'unpaired UTF-16 surrogates are not supported';
  }
  return undefined;
}

const NUMBER_SYNTAX = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?)(\d+))?$/;

export interface CanonicalNumber {
  value: number;
  /** Decimal text without leading zeros: valid as `numeric` input and as a jsonpath literal. */
  text: string;
}

/**
 * Reads a JSON-style number (`-12`, `3.5`, `1e-3`). Accepted numbers are finite as a double and
 * have an exponent of at most three digits, so that `numeric` and jsonpath accept the text.
 * Returns undefined for anything else (including `0x10`, ` 1`, `Infinity`, `1.`).
 */
export function canonicalNumber(text: string): CanonicalNumber | undefined {
  if (text.length > MAX_NUMBER_LENGTH) return undefined;
  const match = NUMBER_SYNTAX.exec(text);
  if (match === null) return undefined;
  const [, sign = '', integer = '', fraction, exponentSign = '', exponent] = match;
  const value = Number(text);
  if (!Number.isFinite(value)) return undefined;
  let canonical = sign + stripLeadingZeros(integer);
  if (fraction !== undefined) canonical += `.${fraction}`;
  if (exponent !== undefined) {
    const digits = stripLeadingZeros(exponent);
    if (digits.length > 3) return undefined;
    canonical += `e${exponentSign}${digits}`;
  }
  return { value, text: canonical };
}

function stripLeadingZeros(digits: string): string {
  const stripped = digits.replace(/^0+/, '');
  return stripped === '' ? '0' : stripped;
}

const DATE_TIME_SYNTAX = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:\d{2})?$/;

/**
 * Normalises a DateTime predicate value (§2.1: createdAt and lastModifiedAt are DateTime, UTC) to
 * `YYYY-MM-DDTHH:mm:ss[.ffffff](Z|±HH:mm)`, which PostgreSQL reads as timestamptz without error.
 * A value without a zone is UTC, never the session's time zone (which differs between drivers).
 * Fractions beyond microseconds are truncated (timestamptz has microsecond precision); comparisons
 * with such an instant are adjusted by the compiler (isBetweenMicroseconds).
 */
export function normaliseDateTime(text: string): string | undefined {
  const match = DATE_TIME_SYNTAX.exec(text);
  if (match === null) return undefined;
  const [, year = '', month = '', day = '', hour = '00', minute = '00', second = '00', fraction, zone = 'Z'] = match;
  const y = Number(year);
  const m = Number(month);
  const d = Number(day);
  if (y < 1 || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return undefined;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  if (zone !== 'Z') {
    const offsetHours = Number(zone.slice(1, 3));
    const offsetMinutes = Number(zone.slice(4, 6));
    if (offsetHours > 14 || offsetMinutes > 59) return undefined;
  }
  const micros = fraction === undefined ? '' : `.${fraction.slice(0, 6)}`;
  return `${year}-${month}-${day}T${hour}:${minute}:${second}${micros}${zone}`;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Does this valid DateTime name an instant between two microseconds (a nonzero digit after the
 * sixth of the fraction)? timestamptz cannot hold it, and truncating it would move the comparison.
 */
export function isBetweenMicroseconds(text: string): boolean {
  const fraction = DATE_TIME_SYNTAX.exec(text)?.[7];
  return fraction !== undefined && /[1-9]/.test(fraction.slice(6)) && normaliseDateTime(text) !== undefined;
}
