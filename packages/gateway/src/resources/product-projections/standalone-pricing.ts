import type { Queryable } from '@herald/store';
import { allVariants, PRODUCT_TYPE_ID, type Price, type Product } from '../products/product.js';
import type { PriceCriteria } from '../shared/price-selection.js';
import type { TypedMoney } from '../shared/typed-money.js';
import { activeStandalonePrices } from '../standalone-prices/active-prices.js';
import type { StandalonePrice } from '../standalone-prices/standalone-price.js';
import { skuPathIn } from '../products/sku-lookup.js';

/*
 * Price selection of `Standalone` products (ProductPriceModeEnum: "Composable Commerce uses
 * StandalonePrices, which are associated with the ProductVariant through the `sku` field"). The
 * variant's `prices` stay its Embedded Prices (ProductVariant.prices); only the selected `price`
 * comes from the SKU's active StandalonePrices.
 */

/**
 * A StandalonePrice as the Price a variant's `price` answers (types/common/Price.raml): the same
 * id, value and scope. Its `value` is TypedMoney, as Price.value is in the reference.
 */
export type SelectablePrice = Omit<Price, 'value' | 'tiers'> & {
  value: TypedMoney;
  tiers?: ReadonlyArray<{ minimumQuantity: number; value: TypedMoney }>;
};

/** The active StandalonePrices of the SKUs of one answer, by SKU, in creation order. */
export interface StandalonePriceBook {
  pricesOf(sku: string | undefined): readonly SelectablePrice[];
}

export const NO_STANDALONE_PRICES: StandalonePriceBook = { pricesOf: () => [] };

export interface StandalonePriceSource {
  db: Queryable;
  projectKey: string;
  products: readonly Product[];
  staged: boolean;
  /** The request's price selection: without one, no price is selected and nothing is read. */
  criteria: PriceCriteria | undefined;
}

/** The Price fields of a StandalonePrice (StandalonePrice.raml); `sku`, `active`, `staged` are its own. */
export function standaloneAsPrice(price: StandalonePrice): SelectablePrice {
  const { id, key, value, country, customerGroup, channel, validFrom, validUntil, tiers, discounted, custom } = price;
  const fields = { key, country, customerGroup, channel, validFrom, validUntil, tiers, discounted, custom };
  const copy: SelectablePrice = { id, value };
  for (const [name, field] of Object.entries(fields)) if (field !== undefined) Object.assign(copy, { [name]: field });
  return copy;
}

/** The SKUs of the projected variants of the answer's `Standalone` products. */
function standaloneSkus({ products, staged }: StandalonePriceSource): string[] {
  const skus = new Set<string>();
  for (const product of products) {
    if (product.priceMode !== 'Standalone') continue;
    const data = staged ? product.masterData.staged : product.masterData.current;
    for (const { sku } of allVariants(data)) if (sku !== undefined) skus.add(sku);
  }
  return [...skus];
}

/**
 * The book of one answer: the active StandalonePrices in the selection's currency of every SKU of
 * its Standalone products, read in one query whatever the page's size.
 */
export async function standalonePriceBook(source: StandalonePriceSource): Promise<StandalonePriceBook> {
  const skus = standaloneSkus(source);
  if (source.criteria === undefined || skus.length === 0) return NO_STANDALONE_PRICES;
  const found = await activeStandalonePrices(source.db, source.projectKey, skus, { currency: source.criteria.currency, staged: source.staged });
  const bySku = new Map<string, SelectablePrice[]>();
  for (const doc of found) {
    const prices = bySku.get(doc.sku) ?? [];
    prices.push(standaloneAsPrice(doc));
    bySku.set(doc.sku, prices);
  }
  return { pricesOf: (sku) => (sku === undefined ? [] : (bySku.get(sku) ?? [])) };
}

/** Which of `skus` belong to a `Standalone` product (current or staged data: a SKU is unique among both). */
async function skusOfStandaloneProducts(db: Queryable, projectKey: string, skus: readonly string[]): Promise<Set<string>> {
  const found = await db.query<{ doc: Product }>(
    `SELECT doc FROM resources WHERE project_key = $1 AND type_id = $2 AND doc @> '{"priceMode": "Standalone"}'::jsonb AND doc @? $3::jsonpath`,
    [projectKey, PRODUCT_TYPE_ID, skuPathIn('*', skus)],
  );
  const wanted = new Set(skus);
  const standalone = new Set<string>();
  for (const { doc } of found.rows) {
    for (const data of [doc.masterData.current, doc.masterData.staged]) {
      for (const { sku } of allVariants(data)) if (sku !== undefined && wanted.has(sku)) standalone.add(sku);
    }
  }
  return standalone;
}

/**
 * For callers that see variants without their product (GraphQL's ProductVariant.price): the
 * active StandalonePrices, in every currency, of those of `skus` that belong to a `Standalone`
 * product; a SKU of an `Embedded` product (or of none) is absent. `staged`: each price as its
 * staged changes leave it, for variants of staged data. Two queries for any number of SKUs.
 */
export async function standalonePricesOfSkus(
  db: Queryable,
  projectKey: string,
  skus: readonly string[],
  staged: boolean,
): Promise<ReadonlyMap<string, readonly SelectablePrice[]>> {
  const bySku = new Map<string, SelectablePrice[]>();
  if (skus.length === 0) return bySku;
  const [standalone, found] = await Promise.all([skusOfStandaloneProducts(db, projectKey, skus), activeStandalonePrices(db, projectKey, skus, { staged })]);
  for (const sku of standalone) bySku.set(sku, []);
  for (const doc of found) bySku.get(doc.sku)?.push(standaloneAsPrice(doc));
  return bySku;
}
