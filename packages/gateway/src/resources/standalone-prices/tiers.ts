import { invalidField, invalidInput, invalidOperation, type MessagePayload } from '@herald/model';
import { isDeepStrictEqual } from 'node:util';
import type { ActionHandlers } from '../shared/update-actions.js';
import type { PriceTier, StandalonePrice } from './standalone-price.js';
import { typedMoneyIn } from '../shared/typed-money.js';

/** The reference states no limit on tiers; this bound only keeps documents reasonable. */
const MAX_TIERS = 500;

/** A PriceTierDraft in the price's currency; `minimumQuantity` below 2 is an InvalidField (StandalonePriceAddPriceTierAction). */
function tier(value: unknown, field: string, currency: string): PriceTier {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidInput(`'${field}' must be a PriceTier: {"minimumQuantity": 2, "value": {…}}.`, { field });
  }
  const draft = value as Record<string, unknown>;
  const minimumQuantity = draft.minimumQuantity;
  if (typeof minimumQuantity !== 'number' || !Number.isSafeInteger(minimumQuantity) || minimumQuantity < 2) {
    throw invalidField(`${field}.minimumQuantity`, `'${field}.minimumQuantity' must be an integer of at least 2.`, minimumQuantity);
  }
  return { minimumQuantity, value: typedMoneyIn(draft.value, `${field}.value`, currency) };
}

/** A list of PriceTierDrafts whose `minimumQuantity` values are unique (StandalonePriceSetPriceTiersAction). */
export function tierList(value: unknown, field: string, currency: string): PriceTier[] {
  if (!Array.isArray(value) || value.length > MAX_TIERS) {
    throw invalidInput(`'${field}' must be an array of at most ${MAX_TIERS} PriceTiers.`, { field });
  }
  const tiers = value.map((item, index) => tier(item, `${field}[${index}]`, currency));
  tiers.forEach((checked, index) => {
    if (tiers.findIndex((other) => other.minimumQuantity === checked.minimumQuantity) !== index) {
      throw invalidField(`${field}[${index}].minimumQuantity`, `The minimumQuantity ${checked.minimumQuantity} is listed twice.`, checked.minimumQuantity);
    }
  });
  return tiers;
}

function setTiers(price: StandalonePrice, tiers: PriceTier[]): void {
  if (tiers.length === 0) delete price.tiers;
  else price.tiers = tiers;
}

/** addPriceTier, removePriceTier and setPriceTiers with their StandalonePriceTier* messages. */
export const tierActions: ActionHandlers<StandalonePrice> = {
  addPriceTier(price, action): MessagePayload[] {
    const added = tier(action.tier, 'tier', price.value.currencyCode);
    const tiers = price.tiers ?? [];
    if (tiers.some((known) => known.minimumQuantity === added.minimumQuantity)) {
      throw invalidField('tier.minimumQuantity', `A tier with minimumQuantity ${added.minimumQuantity} already exists.`, added.minimumQuantity);
    }
    setTiers(price, [...tiers, added]);
    return [{ type: 'StandalonePriceTierAdded', tier: added }];
  },
  removePriceTier(price, action): MessagePayload[] {
    const quantity = action.minimumQuantity;
    const removed = price.tiers?.find((known) => known.minimumQuantity === quantity);
    if (removed === undefined) throw invalidOperation(`The price has no tier with minimumQuantity ${JSON.stringify(quantity)}.`);
    setTiers(
      price,
      (price.tiers ?? []).filter((known) => known !== removed),
    );
    return [{ type: 'StandalonePriceTierRemoved', removedTier: removed }];
  },
  setPriceTiers(price, action): MessagePayload[] {
    const tiers = tierList(action.tiers, 'tiers', price.value.currencyCode);
    const previousTiers = price.tiers ?? [];
    if (isDeepStrictEqual(tiers, previousTiers)) return [];
    setTiers(price, tiers);
    return [{ type: 'StandalonePriceTiersSet', tiers, previousTiers }];
  },
};
