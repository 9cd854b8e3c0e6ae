import { invalidInput } from '@herald/model';
import { countryCode } from '../shared/address.js';
import { optionalString } from '../shared/validation.js';

/**
 * A country and, optionally, a state within it: the reference's Location (types/zone/Location.raml)
 * and the key of a TaxRate (types/tax-category/TaxRate.raml). `state` is case-sensitive and must be
 * spelled as in a cart's shipping address.
 */
export interface Location {
  country: string;
  state?: string;
}

/** What a caller asks about (an address): `state` may be absent, undefined or empty. */
export interface AddressLocation {
  country: string;
  state?: string | undefined;
}

/** The reference's TaxRateDraft: "Empty strings are treated as if `state` was omitted" (zones alike). */
export function givenState(state: string | undefined): string | undefined {
  return state === undefined || state === '' ? undefined : state;
}

/** Validates a Location (country code, optional state); a state of `""` is left out. */
export function location(value: unknown, field: string): Location {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidInput(`'${field}' must be a Location object with a 'country'.`, { field });
  }
  const draft = value as Record<string, unknown>;
  const result: Location = { country: countryCode(draft.country, `${field}.country`) };
  const state = givenState(optionalString(draft.state, `${field}.state`, 256));
  if (state !== undefined) result.state = state;
  return result;
}

export function sameLocation(a: Location, b: Location): boolean {
  return a.country === b.country && a.state === b.state;
}

export function describeLocation(where: Location): string {
  return where.state === undefined ? where.country : `${where.country}/${where.state}`;
}

/**
 * The entry that applies to `address`: the one for its country and state, else the one for its
 * country without a state (how the platform picks a tax rate for a shipping address). An entry for
 * another state of the country never applies.
 */
export function mostSpecific<T>(entries: readonly T[], address: AddressLocation, locationOf: (entry: T) => Location): T | undefined {
  const state = givenState(address.state);
  const inCountry = entries.filter((entry) => locationOf(entry).country === address.country);
  const exact = state === undefined ? undefined : inCountry.find((entry) => locationOf(entry).state === state);
  return exact ?? inCountry.find((entry) => locationOf(entry).state === undefined);
}
