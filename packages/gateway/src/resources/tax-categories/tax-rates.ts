import { duplicateField, invalidInput, invalidOperation, requiredField } from '@herald/model';
import { newAddressId } from '../shared/owned-addresses.js';
import { asDraft, optionalKey, requiredString } from '../shared/validation.js';
import { describeLocation, location, sameLocation } from '../zones/location.js';
import type { SubRate, TaxRate } from './tax-category.js';

/** Bounds a TaxCategory's document (hostile bodies): a rate per state of every country fits. */
export const MAX_RATES = 1000;
export const MAX_SUB_RATES = 100;

/** Sums of decimal fractions are inexact in binary (0.1 + 0.09): equal within this. */
const SUM_TOLERANCE = 1e-9;

type RateDraft = Omit<TaxRate, 'id'>;

/** TaxRate.amount and SubRate.amount: a number from 0 to 1 (the reference's minimum and maximum). */
function rateAmount(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw invalidInput(`'${field}' must be a number from 0 to 1.`, { field, invalidValue: value });
  }
  return value;
}

function subRate(value: unknown, field: string): SubRate {
  const draft = asDraft(value, 'SubRate');
  if (draft.amount === undefined || draft.amount === null) throw requiredField(`${field}.amount`);
  return { name: requiredString(draft, 'name', 256), amount: rateAmount(draft.amount, `${field}.amount`) };
}

function subRateList(value: unknown, field: string): SubRate[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length > MAX_SUB_RATES) {
    throw invalidInput(`'${field}' must be an array of at most ${MAX_SUB_RATES} SubRates.`, { field });
  }
  return value.map((item, index) => subRate(item, `${field}[${index}]`));
}

/** The sum of the sub-rates, without the binary noise of the addition (0.1 + 0.09 is 0.19). */
function sumOf(subRates: readonly SubRate[]): number {
  return Number(subRates.reduce((sum, sub) => sum + sub.amount, 0).toFixed(12));
}

/**
 * TaxRateDraft.amount: "Either `amount` or `subRates` must be defined. If both are defined, the
 * value of this field must be equal to the sum of the `subRates` amounts; otherwise, an
 * InvalidOperation error is returned." Without `amount`, the rate is the sum of its sub-rates
 * (TaxRate.amount: "If subrates are used, the amount is the sum of all rates in `subRates`").
 */
function amountWith(value: unknown, subRates: readonly SubRate[] | undefined, field: string): number {
  const given = value === undefined || value === null ? undefined : rateAmount(value, `${field}.amount`);
  if (subRates === undefined || subRates.length === 0) {
    if (given === undefined) throw requiredField(`${field}.amount`);
    return given;
  }
  const sum = sumOf(subRates);
  if (given === undefined) return rateAmount(sum, `${field}.subRates`);
  if (Math.abs(given - sum) > SUM_TOLERANCE) {
    throw invalidOperation(`The amount ${given} of '${field}' is not the sum ${sum} of its subRates.`);
  }
  return given;
}

function includedInPrice(value: unknown, field: string): boolean {
  if (value === undefined || value === null) throw requiredField(`${field}.includedInPrice`);
  if (typeof value !== 'boolean')
    throw invalidInput(`'${field}.includedInPrice' must be a boolean.`, { field: `${field}.includedInPrice`, invalidValue: value });
  return value;
}

/** Validates a TaxRateDraft (types/tax-category/TaxRateDraft.raml) into a rate without its id. */
export function taxRateDraft(value: unknown, field: string): RateDraft {
  const draft = asDraft(value, 'TaxRateDraft');
  const subRates = subRateList(draft.subRates, `${field}.subRates`);
  const where = location(draft, field);
  const rate: RateDraft = {
    name: requiredString(draft, 'name', 256),
    amount: amountWith(draft.amount, subRates, field),
    includedInPrice: includedInPrice(draft.includedInPrice, field),
    country: where.country,
  };
  const key = optionalKey(draft.key, `${field}.key`);
  if (key !== undefined) rate.key = key;
  if (where.state !== undefined) rate.state = where.state;
  if (subRates !== undefined) rate.subRates = subRates;
  return rate;
}

/** A TaxRate with a new id (8 random characters, as the platform's rate and address ids), unique in `taken`. */
export function withNewId(rate: RateDraft, taken: readonly TaxRate[]): TaxRate {
  return { id: newAddressId(taken), ...rate };
}

/**
 * TaxRateDraft.country/state: "If the provided combination of `country` and `state` exists for the
 * TaxCategory, a DuplicateField error is returned"; TaxRateDraft.key likewise for a key used by
 * another TaxRate. `rates` is the whole list after a change.
 */
export function assertDistinctRates(rates: readonly RateDraft[]): void {
  rates.forEach((rate, index) => {
    const earlier = rates.slice(0, index);
    if (earlier.some((other) => sameLocation(other, rate))) throw duplicateField('country', describeLocation(rate));
    if (rate.key !== undefined && earlier.some((other) => other.key === rate.key)) throw duplicateField('key', rate.key);
  });
}

/** TaxCategoryDraft.rates: TaxRateDrafts, each given an id, distinct by location and key (absent: none). */
export function rateList(value: unknown, field: string): TaxRate[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_RATES) {
    throw invalidInput(`'${field}' must be an array of at most ${MAX_RATES} TaxRateDrafts.`, { field });
  }
  const drafts = value.map((item, index) => taxRateDraft(item, `${field}[${index}]`));
  assertDistinctRates(drafts);
  const rates: TaxRate[] = [];
  for (const draft of drafts) rates.push(withNewId(draft, rates));
  return rates;
}

/**
 * The position of the rate that removeTaxRate / replaceTaxRate name by `taxRateId` or `taxRateKey`
 * ("Either … must be provided"): InvalidOperation when the TaxCategory has no such rate.
 */
export function rateIndex(rates: readonly TaxRate[], action: Readonly<Record<string, unknown>>): number {
  const { taxRateId, taxRateKey } = action;
  if (typeof taxRateId !== 'string' && typeof taxRateKey !== 'string') {
    throw invalidInput("Either 'taxRateId' or 'taxRateKey' must be provided.", { field: 'taxRateId' });
  }
  const index = rates.findIndex((rate) => (typeof taxRateId === 'string' ? rate.id === taxRateId : rate.key === taxRateKey));
  if (index < 0) {
    const what = typeof taxRateId === 'string' ? `id '${taxRateId}'` : `key '${String(taxRateKey)}'`;
    throw invalidOperation(`The TaxCategory has no TaxRate with ${what}.`);
  }
  return index;
}
