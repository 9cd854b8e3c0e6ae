/** Paging parameters (§4.4.2–4.4.4, §8). */
import { invalidInput, type ApiError } from '@herald/model';
import type { Paging } from './types.js';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 500;
export const MAX_OFFSET = 10_000;

/** §4.4.4: with a query predicate, `total` is capped at the maximum offset. */
export const TOTAL_CAP = MAX_OFFSET;

/** Paging values as they arrive: query-string text, or numbers and booleans from other callers. */
export interface RawPaging {
  limit?: string | number | undefined;
  offset?: string | number | undefined;
  withTotal?: string | boolean | undefined;
}

export function parsePaging(raw: RawPaging = {}): Paging {
  return {
    limit: integerParameter('limit', raw.limit, DEFAULT_LIMIT, 1, MAX_LIMIT),
    offset: integerParameter('offset', raw.offset, 0, 0, MAX_OFFSET),
    withTotal: booleanParameter('withTotal', raw.withTotal, true),
  };
}

const DIGITS = /^\d{1,9}$/;

/*
 * The parsers take `unknown`: RawPaging is what callers promise, but a route that hands over its
 * raw query (`?limit=1&limit=2` is an array) must get the same 400 as any other bad value, not a
 * TypeError and a 500.
 */

function integerParameter(name: string, raw: unknown, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && DIGITS.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw pagingError(name, `The parameter ${name} must be an integer from ${min} to ${max}.`, raw);
  }
  return value;
}

function booleanParameter(name: string, raw: unknown, fallback: boolean): boolean {
  if (raw === undefined) return fallback;
  if (typeof raw === 'boolean') return raw;
  const text = typeof raw === 'string' ? raw.toLowerCase() : undefined;
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw pagingError(name, `The parameter ${name} must be true or false.`, raw);
}

function pagingError(name: string, message: string, invalidValue: unknown): ApiError {
  // Echo only a bounded scalar: an array of repeated parameters could be arbitrarily long.
  const echo = typeof invalidValue === 'string' ? invalidValue.slice(0, 40) : typeof invalidValue === 'object' ? undefined : invalidValue;
  return invalidInput(message, { parameter: name, ...(echo === undefined ? {} : { invalidValue: echo }) });
}
