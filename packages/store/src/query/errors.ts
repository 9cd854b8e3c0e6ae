import { type ApiError, invalidInput } from '@herald/model';

const MAX_QUOTED = 24;

/** Quotes user text for an error message, shortened so a hostile input cannot bloat the answer. */
export function quote(text: string): string {
  const short = text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text;
  return JSON.stringify(short);
}

/** A 400 InvalidInput for a malformed `where` predicate, naming the character offset (0-based). */
export function predicateError(position: number, message: string): ApiError {
  return invalidInput(`Malformed where predicate at position ${position}: ${message}.`, {
    parameter: 'where',
    position,
  });
}
