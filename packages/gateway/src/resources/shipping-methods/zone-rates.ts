import { duplicateField, invalidInput, invalidOperation, requiredField, type Reference } from '@herald/model';
import type { Project } from '@herald/store';
import { isDeepStrictEqual } from 'node:util';
import { identifierLocator, loadReferenced, type Load } from '../shared/references.js';
import { asDraft } from '../shared/validation.js';
import { ZONE_TYPE_ID, type Zone } from '../zones/zone.js';
import { rateMoney } from './money-draft.js';
import type { ShippingRate, ZoneRate } from './shipping-method.js';
import { tierList } from './tiers.js';

/** Bounds a method's document (hostile bodies); the reference states no numbers. */
export const MAX_ZONE_RATES = 500;
export const MAX_SHIPPING_RATES = 200;

/** Validates a ShippingRateDraft (types/shipping-method/ShippingRateDraft.raml). */
export function shippingRateDraft(value: unknown, field: string, project: Project): ShippingRate {
  if (value === undefined || value === null) throw requiredField(field);
  const draft = asDraft(value, field);
  const price = rateMoney(draft.price, `${field}.price`);
  const rate: ShippingRate = { price, tiers: tierList(draft.tiers, `${field}.tiers`, price.currencyCode, project) };
  if (draft.freeAbove !== undefined && draft.freeAbove !== null) rate.freeAbove = rateMoney(draft.freeAbove, `${field}.freeAbove`, price.currencyCode);
  return rate;
}

/** ZoneRateDraft.shippingRates: "The array must not contain two ShippingRates with the same CurrencyCode." */
export function assertOneRatePerCurrency(rates: readonly ShippingRate[], field: string): void {
  rates.forEach((rate, index) => {
    if (rates.slice(0, index).some((other) => other.price.currencyCode === rate.price.currencyCode)) {
      throw duplicateField(`${field}.currencyCode`, rate.price.currencyCode);
    }
  });
}

/** A ZoneResourceIdentifier resolved to a reference by id: 400 ReferencedResourceNotFound when no such Zone exists. */
export async function zoneReference(load: Load, value: unknown, field: string): Promise<Reference<'zone'>> {
  if (value === undefined || value === null) throw requiredField(field);
  const zone = await loadReferenced<Zone>(load, ZONE_TYPE_ID, identifierLocator(value, field, ZONE_TYPE_ID));
  return { typeId: ZONE_TYPE_ID, id: zone.id };
}

async function zoneRateDraft(value: unknown, field: string, load: Load, project: Project): Promise<ZoneRate> {
  const draft = asDraft(value, field);
  const zone = await zoneReference(load, draft.zone, `${field}.zone`);
  const list = draft.shippingRates;
  if (list === undefined || list === null) throw requiredField(`${field}.shippingRates`);
  if (!Array.isArray(list) || list.length > MAX_SHIPPING_RATES) {
    throw invalidInput(`'${field}.shippingRates' must be an array of at most ${MAX_SHIPPING_RATES} ShippingRateDrafts.`, { field: `${field}.shippingRates` });
  }
  const shippingRates = list.map((item, index) => shippingRateDraft(item, `${field}.shippingRates[${index}]`, project));
  assertOneRatePerCurrency(shippingRates, `${field}.shippingRates`);
  return { zone, shippingRates };
}

/** ShippingMethodDraft.zoneRates (required): each Zone once, as addZone refuses a Zone already there. */
export async function zoneRateList(value: unknown, load: Load, project: Project): Promise<ZoneRate[]> {
  if (value === undefined || value === null) throw requiredField('zoneRates');
  if (!Array.isArray(value) || value.length > MAX_ZONE_RATES) {
    throw invalidInput(`'zoneRates' must be an array of at most ${MAX_ZONE_RATES} ZoneRateDrafts.`, { field: 'zoneRates' });
  }
  const zoneRates: ZoneRate[] = [];
  for (const [index, item] of value.entries()) {
    const zoneRate = await zoneRateDraft(item, `zoneRates[${index}]`, load, project);
    if (zoneRates.some((known) => known.zone.id === zoneRate.zone.id)) throw duplicateField('zoneRates.zone', zoneRate.zone);
    zoneRates.push(zoneRate);
  }
  return zoneRates;
}

/** The ZoneRate of `zone`: InvalidOperation when the method has none (addShippingRate, removeShippingRate). */
export function zoneRateOf(zoneRates: readonly ZoneRate[], zone: Reference<'zone'>): ZoneRate {
  const found = zoneRates.find((zoneRate) => zoneRate.zone.id === zone.id);
  if (found === undefined) throw invalidOperation(`The ShippingMethod has no ZoneRate for the Zone '${zone.id}'; add the Zone first.`);
  return found;
}

/** removeShippingRate names the rate by its value (a ShippingRateDraft): the stored rate equal to it. */
export function withoutRate(zoneRate: ZoneRate, removed: ShippingRate): ShippingRate[] {
  const index = zoneRate.shippingRates.findIndex((rate) => isDeepStrictEqual(rate, removed));
  if (index < 0) throw invalidOperation(`The ZoneRate of the Zone '${zoneRate.zone.id}' has no such ShippingRate.`);
  return zoneRate.shippingRates.filter((_, position) => position !== index);
}
