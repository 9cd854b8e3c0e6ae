/**
 * The reference's price selection (types/common/Price.raml, traits/price-selecting.raml and the
 * "Product price selection" rules they link): pure, so line items, product projections and tests
 * share one implementation.
 *
 * Currency and validity are hard filters. Country, customer group and channel either match the
 * criteria or are absent from the price; a price scoped to a value the criteria do not name never
 * matches. Among the candidates the most specific wins, in the reference's fallback order:
 * customer group + channel + country, customer group + channel, customer group + country,
 * customer group, channel + country, channel, country, then a price with none of them. Within one
 * level, a price with validity dates (valid now) wins over one without.
 *
 * Several customer groups (priceCustomerGroupAssignments, a buyer's customerGroupAssignments): a
 * price of any of them matches at the customer group levels, so the fallback order still picks the
 * most specific level that has a price; when that level holds prices of several of the groups, the
 * lowest wins ("the better of the prices", the reference's fallback logic for multiple Customer
 * Groups), its discounted value when it has one.
 */

/** What price selection reads of a Price or a StandalonePrice. */
export interface SelectablePrice {
  value: SelectableMoney;
  discounted?: { value: SelectableMoney };
  country?: string;
  customerGroup?: { id: string };
  channel?: { id: string };
  validFrom?: string;
  validUntil?: string;
}

/** What selection reads of an amount: the currency, and the amount to compare prices of several groups. */
interface SelectableMoney {
  currencyCode: string;
  centAmount?: number;
  fractionDigits?: number;
}

/** The selection's inputs (the query parameters priceCurrency, priceCountry, priceCustomerGroup, priceCustomerGroupAssignments, priceChannel). */
export interface PriceCriteria {
  currency: string;
  country?: string;
  customerGroupId?: string;
  /** Any of these groups (with `customerGroupId`, if given): the multiple Customer Groups rule above. */
  customerGroupIds?: readonly string[];
  channelId?: string;
}

/** The groups the criteria name, each once. */
function groupsOf(criteria: PriceCriteria): ReadonlySet<string> {
  const groups = new Set(criteria.customerGroupIds ?? []);
  if (criteria.customerGroupId !== undefined) groups.add(criteria.customerGroupId);
  return groups;
}

function isValidAt(price: SelectablePrice, now: Date): boolean {
  const time = now.getTime();
  if (price.validFrom !== undefined && Date.parse(price.validFrom) > time) return false;
  // validUntil is the last moment the price is valid (Price.raml "until this Price is valid").
  if (price.validUntil !== undefined && Date.parse(price.validUntil) < time) return false;
  return true;
}

/** A scoped dimension matches when the price leaves it open or names the criterion's value. */
function dimensionMatches(scoped: string | undefined, wanted: string | undefined): boolean {
  return scoped === undefined || scoped === wanted;
}

function matches(price: SelectablePrice, criteria: PriceCriteria, groups: ReadonlySet<string>, now: Date): boolean {
  return (
    price.value.currencyCode === criteria.currency &&
    dimensionMatches(price.country, criteria.country) &&
    (price.customerGroup === undefined || groups.has(price.customerGroup.id)) &&
    dimensionMatches(price.channel?.id, criteria.channelId) &&
    isValidAt(price, now)
  );
}

/**
 * The fallback order as one number: customer group outranks channel, which outranks country, and
 * a dated price breaks the tie within a level. Only candidates are ranked, so a scoped dimension is
 * a matched one.
 */
function specificity(price: SelectablePrice): number {
  const level = (price.customerGroup === undefined ? 0 : 4) + (price.channel === undefined ? 0 : 2) + (price.country === undefined ? 0 : 1);
  const dated = price.validFrom !== undefined || price.validUntil !== undefined;
  return level * 2 + (dated ? 1 : 0);
}

/** The amount a buyer pays at quantity 1, comparable across fraction digits (undefined: not comparable). */
function amountOf(price: SelectablePrice): number | undefined {
  const { centAmount, fractionDigits } = price.discounted?.value ?? price.value;
  return centAmount === undefined ? undefined : centAmount / 10 ** (fractionDigits ?? 2);
}

function cheaper(price: SelectablePrice, than: SelectablePrice): boolean {
  const [amount, other] = [amountOf(price), amountOf(than)];
  return amount !== undefined && other !== undefined && amount < other;
}

/**
 * The price the reference's price selection picks, or undefined when no price matches; ties go to
 * the first listed, except between prices of several of the criteria's groups (the lowest).
 */
export function selectPrice<P extends SelectablePrice>(prices: readonly P[], criteria: PriceCriteria, now: Date): P | undefined {
  const groups = groupsOf(criteria);
  let best: P | undefined;
  let bestRank = -1;
  for (const price of prices) {
    if (!matches(price, criteria, groups, now)) continue;
    const rank = specificity(price);
    if (rank > bestRank || (rank === bestRank && groups.size > 1 && best !== undefined && cheaper(price, best))) {
      best = price;
      bestRank = rank;
    }
  }
  return best;
}

/** What tier selection reads of a price (types/common/PriceTier.raml). */
export interface TieredPrice<M> {
  value: M;
  tiers?: ReadonlyArray<{ minimumQuantity: number; value: M }>;
  discounted?: { value: M };
}

/**
 * The unit price a line item of `quantity` pays: a discounted price wins and ignores tiers
 * (Price.raml `tiers`: "If discounted is present, the tiered Price is ignored"); otherwise the tier
 * with the highest `minimumQuantity` the quantity reaches, else the base value (valid from 1).
 */
export function unitPriceForQuantity<M>(price: TieredPrice<M>, quantity: number): M {
  if (price.discounted !== undefined) return price.discounted.value;
  let unit = price.value;
  let reached = 1;
  for (const tier of price.tiers ?? []) {
    if (tier.minimumQuantity <= quantity && tier.minimumQuantity > reached) {
      unit = tier.value;
      reached = tier.minimumQuantity;
    }
  }
  return unit;
}
