import { invalidInput } from '@herald/model';

/**
 * The expected version of an update or delete, REST body or query and GraphQL alike. §7: a version
 * that does not match the resource's is a 409 (the store answers it, with `currentVersion`, for 0
 * too); only a value that is no version at all (not a non-negative whole number) is a 400.
 */
export function expectedVersion(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw invalidInput("Request is missing a valid 'version' (a non-negative integer).", { field: 'version' });
  }
  return value;
}
