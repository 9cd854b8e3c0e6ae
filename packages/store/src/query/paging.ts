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

function integerParameter(name: string, raw: string | number | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = typeof raw === 'number' ? raw : DIGITS.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw pagingError(name, `The parameter ${name} must be an integer from ${min} to ${max}.`, raw);
  }
  return value;
}

function booleanParameter(name: string, raw: string | boolean | undefined, fallback: boolean): boolean {
  if (raw === undefined) return fallback;
  if (typeof raw === 'boolean') return raw;
  const text = raw.toLowerCase();
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw pagingError(name, `The parameter ${name} must be true or false.`, raw);
}

function pagingError(name: string, message: string, invalidValue: unknown): ApiError {
  return invalidInput(message, { parameter: name, invalidValue: typeof invalidValue === 'string' ? invalidValue.slice(0, 40) : invalidValue });
}
