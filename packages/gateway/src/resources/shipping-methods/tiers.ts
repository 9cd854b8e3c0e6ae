import { invalidInput, requiredField } from '@herald/model';
import type { Project } from '@herald/store';
import { asDraft, type Draft } from '../shared/validation.js';
import { rateMoney } from './money-draft.js';
import { priceFunctionText } from './price-function.js';
import type { CartClassificationTier, CartScoreTier, CartValueTier, ShippingRatePriceTier, TierType } from './shipping-method.js';

/** Bounds a rate's document (hostile bodies); the reference states no number. */
export const MAX_TIERS = 100;
const TIER_TYPES: readonly TierType[] = ['CartValue', 'CartClassification', 'CartScore'];

function integer(draft: Draft, name: string, field: string, minimum: number): number {
  const value = draft[name];
  if (value === undefined || value === null) throw requiredField(`${field}.${name}`);
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < minimum) {
    throw invalidInput(`'${field}.${name}' must be an integer of at least ${minimum}.`, { field: `${field}.${name}`, invalidValue: value });
  }
  return value;
}

/** CartValueTier: "Tiers contain the `centAmount` … and start at `1`". */
function cartValueTier(draft: Draft, field: string, currency: string): CartValueTier {
  const minimumCentAmount = integer(draft, 'minimumCentAmount', field, 1);
  return { type: 'CartValue', minimumCentAmount, price: rateMoney(draft.price, `${field}.price`, currency) };
}

/** The project's CartClassification keys, when it has that ShippingRateInputType (else no list to check against). */
function classificationKeys(project: Project): readonly string[] | undefined {
  const input = project.shippingRateInputType as { type?: string; values?: Array<{ key: string }> } | undefined;
  return input?.type === 'CartClassification' ? (input.values ?? []).map((value) => value.key) : undefined;
}

/** CartClassificationTier.value: "`key` selected from the `values` of the CartClassificationType configured in the Project". */
function cartClassificationTier(draft: Draft, field: string, currency: string, project: Project): CartClassificationTier {
  const value = draft.value;
  if (value === undefined || value === null) throw requiredField(`${field}.value`);
  if (typeof value !== 'string' || value === '' || value.length > 256) {
    throw invalidInput(`'${field}.value' must be a non-empty string.`, { field: `${field}.value`, invalidValue: value });
  }
  const keys = classificationKeys(project);
  if (keys !== undefined && !keys.includes(value)) {
    throw invalidInput(`'${field}.value' '${value}' is not a value of the project's CartClassification.`, { field: `${field}.value`, invalidValue: value });
  }
  return { type: 'CartClassification', value, price: rateMoney(draft.price, `${field}.price`, currency) };
}

/** CartScoreTier: "Either `price` or `priceFunction` is required"; the score range starts at 0. */
function cartScoreTier(draft: Draft, field: string, currency: string): CartScoreTier {
  const tier: CartScoreTier = { type: 'CartScore', score: integer(draft, 'score', field, 0) };
  const hasPrice = draft.price !== undefined && draft.price !== null;
  const hasFunction = draft.priceFunction !== undefined && draft.priceFunction !== null;
  if (hasPrice === hasFunction) {
    throw invalidInput(`'${field}' must have either 'price' or 'priceFunction'.`, { field });
  }
  if (hasPrice) tier.price = rateMoney(draft.price, `${field}.price`, currency);
  else tier.priceFunction = priceFunction(draft.priceFunction, `${field}.priceFunction`, currency);
  return tier;
}

function priceFunction(value: unknown, field: string, currency: string): CartScoreTier['priceFunction'] {
  const draft = asDraft(value, field);
  if (draft.currencyCode !== currency) {
    throw invalidInput(`'${field}.currencyCode' must be the rate's currency ${currency}.`, {
      field: `${field}.currencyCode`,
      invalidValue: draft.currencyCode,
    });
  }
  return { currencyCode: currency, function: priceFunctionText(draft.function, `${field}.function`) };
}

function tier(value: unknown, field: string, currency: string, project: Project): ShippingRatePriceTier {
  const draft = asDraft(value, field);
  switch (draft.type) {
    case 'CartValue':
      return cartValueTier(draft, field, currency);
    case 'CartClassification':
      return cartClassificationTier(draft, field, currency, project);
    case 'CartScore':
      return cartScoreTier(draft, field, currency);
    case undefined:
    case null:
      throw requiredField(`${field}.type`);
    default:
      throw invalidInput(`'${field}.type' must be one of ${TIER_TYPES.join(', ')}.`, { field: `${field}.type`, invalidValue: draft.type });
  }
}

/** What identifies a tier within its rate: two tiers for one cart value, class or score would both apply. */
function tierIdentity(entry: ShippingRatePriceTier): number | string {
  if (entry.type === 'CartValue') return entry.minimumCentAmount;
  return entry.type === 'CartClassification' ? entry.value : entry.score;
}

/**
 * ShippingRateDraft.tiers: tiers of one type (a rate is tiered by one input, the project's
 * ShippingRateInputType), each value, class or score once.
 */
export function tierList(value: unknown, field: string, currency: string, project: Project): ShippingRatePriceTier[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_TIERS) {
    throw invalidInput(`'${field}' must be an array of at most ${MAX_TIERS} ShippingRatePriceTiers.`, { field });
  }
  const tiers = value.map((item, index) => tier(item, `${field}[${index}]`, currency, project));
  const first = tiers[0];
  if (first !== undefined && tiers.some((entry) => entry.type !== first.type)) {
    throw invalidInput(`'${field}' mixes tier types; all tiers of a rate must be ${first.type} tiers.`, { field });
  }
  const seen = new Set<number | string>();
  for (const entry of tiers) {
    const identity = tierIdentity(entry);
    if (seen.has(identity)) throw invalidInput(`'${field}' has two tiers for ${JSON.stringify(identity)}.`, { field, invalidValue: identity });
    seen.add(identity);
  }
  return tiers;
}
