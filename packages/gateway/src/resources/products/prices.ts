import { randomUUID } from 'node:crypto';
import { ApiError, invalidInput, requiredField, type Reference } from '@herald/model';
import { countryCode } from '../shared/address.js';
import type { RequestContext } from '../shared/context.js';
import { customFromDraft, isDateTime } from '../shared/custom-fields.js';
import { currencyCode, moneyInCurrency, type CentPrecisionMoney } from '../shared/money.js';
import { identifierLocator, loadReferenced } from '../shared/references.js';
import { asDraft, optionalString } from '../shared/validation.js';
import type { Price, PriceTier } from './product.js';

type Load = Pick<RequestContext, 'load'>;

/** PriceDraft.value: Money, never negative; answered as CentPrecisionMoney. */
function priceValue(value: unknown, field: string): CentPrecisionMoney {
  if (value === undefined || value === null) throw requiredField(field);
  const money = asDraft(value, `'${field}' Money`);
  return moneyInCurrency(money, field, currencyCode(money.currencyCode, `${field}.currencyCode`));
}

function dateTime(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !isDateTime(value)) throw invalidInput(`'${field}' must be a DateTime.`, { field, invalidValue: value });
  return value;
}

/** PriceTierDraft: minimumQuantity ≥ 2 (the base price covers 1), in the price's currency, each quantity once. */
function tiers(value: unknown, field: string, currency: string): PriceTier[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw invalidInput(`'${field}' must be an array of PriceTiers.`, { field });
  const seen = new Set<number>();
  return value.map((item: unknown, index) => {
    const tier = asDraft(item, `'${field}[${index}]' PriceTier`);
    const quantity = tier.minimumQuantity;
    if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 2 || seen.has(quantity)) {
      throw invalidInput(`'${field}[${index}].minimumQuantity' must be a distinct integer of at least 2.`, { field: `${field}[${index}].minimumQuantity` });
    }
    seen.add(quantity);
    return { minimumQuantity: quantity, value: moneyInCurrency(tier.value, `${field}[${index}].value`, currency) };
  });
}

async function reference<T extends 'customer-group' | 'channel'>(value: unknown, field: string, typeId: T, ctx: Load): Promise<Reference<T> | undefined> {
  if (value === undefined || value === null) return undefined;
  const found = await loadReferenced(ctx.load, typeId, identifierLocator(value, field, typeId));
  return { typeId, id: found.id } as Reference<T>;
}

/** A PriceDraft (types/common/PriceDraft.raml) of an embedded price, with a new id. */
export async function priceFromDraft(value: unknown, field: string, ctx: Load): Promise<Price> {
  const draft = asDraft(value, `'${field}' PriceDraft`);
  const money = priceValue(draft.value, `${field}.value`);
  const price: Price = { id: randomUUID(), value: money };
  const key = optionalString(draft.key, `${field}.key`, 256);
  if (key !== undefined) {
    if (key.length < 2) throw invalidInput(`'${field}.key' must have 2 to 256 characters.`, { field: `${field}.key` });
    price.key = key;
  }
  if (draft.country !== undefined && draft.country !== null) price.country = countryCode(draft.country, `${field}.country`);
  const customerGroup = await reference(draft.customerGroup, `${field}.customerGroup`, 'customer-group', ctx);
  if (customerGroup !== undefined) price.customerGroup = customerGroup;
  const channel = await reference(draft.channel, `${field}.channel`, 'channel', ctx);
  if (channel !== undefined) price.channel = channel;
  Object.assign(price, validity(draft, field));
  const priceTiers = tiers(draft.tiers, `${field}.tiers`, money.currencyCode);
  if (priceTiers !== undefined) price.tiers = priceTiers;
  // PriceDraft.custom: a Type for `product-price` and its fields (as setProductPriceCustomType checks them).
  const custom = await customFromDraft(draft.custom, 'product-price', ctx);
  if (custom !== undefined) price.custom = custom;
  return price;
}

/** PriceDraft.validUntil "must be at least 1 ms later than validFrom". */
function validity(draft: Record<string, unknown>, field: string): Pick<Price, 'validFrom' | 'validUntil'> {
  const validFrom = dateTime(draft.validFrom, `${field}.validFrom`);
  const validUntil = dateTime(draft.validUntil, `${field}.validUntil`);
  if (validFrom !== undefined && validUntil !== undefined && Date.parse(validUntil) <= Date.parse(validFrom)) {
    throw invalidInput(`'${field}.validUntil' must be later than validFrom.`, { field: `${field}.validUntil` });
  }
  return { ...(validFrom === undefined ? {} : { validFrom }), ...(validUntil === undefined ? {} : { validUntil }) };
}

export async function pricesFromDraft(value: unknown, field: string, ctx: Load): Promise<Price[]> {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > 100) throw invalidInput(`'${field}' must be an array of PriceDrafts.`, { field });
  const prices: Price[] = [];
  for (const [index, item] of value.entries()) prices.push(await priceFromDraft(item, `${field}[${index}]`, ctx));
  assertPriceKeysUnique(prices, field);
  return prices;
}

/** PriceDraft.key "must be unique per ProductVariant" (400 DuplicatePriceKey). */
export function assertPriceKeysUnique(prices: readonly Price[], field: string): void {
  const keys = prices.flatMap((price) => (price.key === undefined ? [] : [price.key]));
  const duplicate = keys.find((key, index) => keys.indexOf(key) !== index);
  if (duplicate !== undefined) {
    throw new ApiError(400, {
      code: 'DuplicatePriceKey',
      message: `The price key '${duplicate}' is used twice in '${field}'.`,
      conflictingPriceKey: duplicate,
    });
  }
}
