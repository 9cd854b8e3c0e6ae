import { invalidInput } from '@herald/model';

/*
 * The code lists of the Project's countries, currencies and languages (reference: CountryCode is
 * ISO 3166-1 alpha-2, CurrencyCode ISO 4217, Locale an IETF language tag). Node's ICU knows them:
 * no list of our own to keep up to date.
 */

const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));
const ALPHA_2 = /^[A-Z]{2}$/;
/** A language first (2-3 letters), then subtags: `en`, `de-CH`, `zh-Hant-TW`. */
const LANGUAGE_TAG = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
const MAX_ENTRIES = 500;

export function isCountryCode(value: string): boolean {
  if (!ALPHA_2.test(value)) return false;
  const name = REGION_NAMES.of(value);
  return name !== undefined && name !== 'Unknown Region';
}

export function isCurrencyCode(value: string): boolean {
  return CURRENCIES.has(value);
}

export function isLanguageTag(value: string): boolean {
  if (!LANGUAGE_TAG.test(value)) return false;
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
}

/** An array of distinct codes of one list; names the first value that is not one. */
export function codeList(value: unknown, field: string, isCode: (code: string) => boolean, what: string): string[] {
  if (!Array.isArray(value) || value.length > MAX_ENTRIES) {
    throw invalidInput(`'${field}' must be an array of at most ${MAX_ENTRIES} ${what}.`, { field });
  }
  for (const code of value) {
    if (typeof code !== 'string' || !isCode(code)) {
      throw invalidInput(`'${field}' contains ${JSON.stringify(code)}, which is not one of the ${what}.`, { field, invalidValue: code });
    }
  }
  return [...new Set(value as string[])];
}
