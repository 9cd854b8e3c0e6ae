import { invalidInput, type MessagePayload } from '@herald/model';
import { countryCode } from '../shared/address.js';
import type { ActionHandlers } from '../shared/update-actions.js';
import { asDraft } from '../shared/validation.js';
import { withStoreDefaults, type Store, type StoreCountry } from './store.js';

/** At most one entry per country; the reference gives no bound, Herald's arrays stop at 500. */
const MAX_COUNTRIES = 500;

/** A StoreCountry `{code}` (reference: CountryCode, ISO 3166-1 alpha-2). */
export function storeCountry(value: unknown, field: string): StoreCountry {
  const draft = asDraft(value, `StoreCountry '${field}'`);
  return { code: countryCode(draft.code, `${field}.code`) };
}

/** A list of StoreCountry; absent means none, a country named twice is kept once. */
export function storeCountries(value: unknown, field = 'countries'): StoreCountry[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_COUNTRIES) {
    throw invalidInput(`'${field}' must be an array of at most ${MAX_COUNTRIES} {code} objects.`, { field });
  }
  const countries: StoreCountry[] = [];
  for (const [index, item] of value.entries()) {
    const country = storeCountry(item, `${field}[${index}]`);
    if (!countries.some((known) => known.code === country.code)) countries.push(country);
  }
  return countries;
}

const codesOf = (countries: readonly StoreCountry[]): Set<string> => new Set(countries.map((country) => country.code));

/**
 * Replaces the Store's countries; the reference's StoreCountriesChanged names what was added and
 * removed. Nothing changed: no message (and so no new version).
 */
function changeCountries(store: Store, next: StoreCountry[]): MessagePayload[] {
  const current = withStoreDefaults(store).countries;
  const before = codesOf(current);
  const after = codesOf(next);
  const addedCountries = next.filter((country) => !before.has(country.code));
  const removedCountries = current.filter((country) => !after.has(country.code));
  store.countries = next;
  if (addedCountries.length === 0 && removedCountries.length === 0) return [];
  return [{ type: 'StoreCountriesChanged', addedCountries, removedCountries }];
}

/** The reference's setCountries, addCountry and removeCountry (each "has no effect" when nothing changes). */
export const countryActions: ActionHandlers<Store> = {
  setCountries(store, action) {
    return changeCountries(store, storeCountries(action.countries));
  },
  addCountry(store, action) {
    const country = storeCountry(action.country, 'country');
    const current = withStoreDefaults(store).countries;
    if (current.some((known) => known.code === country.code)) return [];
    return changeCountries(store, [...current, country]);
  },
  removeCountry(store, action) {
    const country = storeCountry(action.country, 'country');
    return changeCountries(
      store,
      withStoreDefaults(store).countries.filter((known) => known.code !== country.code),
    );
  },
};
