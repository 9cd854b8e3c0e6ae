import type { Queryable } from '@herald/store';
import { STANDALONE_PRICE_TYPE_ID, type StandalonePrice } from './standalone-price.js';

/** What a reader of active StandalonePrices narrows by besides the SKUs. */
export interface ActivePriceFilter {
  /** Only prices in this currency (price selection always names one). */
  currency?: string;
  /** At most this many prices in all (a bound on what one read may load). */
  limit?: number;
  /**
   * Answer each price as its staged changes would leave it (StandalonePrice.staged, set by
   * changeValue with `staged: true`): what a staged product projection selects. Default: current.
   */
  staged?: boolean;
}

/** One jsonpath naming every SKU (JSON string literals are valid jsonpath strings). */
function skuPath(skus: readonly string[]): string {
  return `$ ? (${skus.map((sku) => `@.sku == ${JSON.stringify(sku)}`).join(' || ')})`;
}

/** `price` with its staged changes applied, as StandalonePriceApplyStagedChangesAction applies them. */
function asStaged(price: StandalonePrice): StandalonePrice {
  const { staged, ...current } = price;
  if (staged === undefined) return price;
  return { ...current, value: staged.value, ...(staged.discounted === undefined ? {} : { discounted: staged.discounted }) };
}

/**
 * The active StandalonePrices of `skus`, oldest first, in one query for any number of SKUs: price
 * selection of carts (carts/catalogue.ts), projections and GraphQL (product-projections/
 * standalone-pricing.ts). `@?` and `@>` are both answered by the GIN index on `doc`, so the read
 * touches the SKUs' prices only, not every active price of the project.
 */
export async function activeStandalonePrices(
  db: Queryable,
  projectKey: string,
  skus: readonly string[],
  filter: ActivePriceFilter = {},
): Promise<StandalonePrice[]> {
  if (skus.length === 0) return [];
  const match = { active: true, ...(filter.currency === undefined ? {} : { value: { currencyCode: filter.currency } }) };
  const found = await db.query<{ doc: StandalonePrice }>(
    `SELECT doc FROM resources WHERE project_key = $1 AND type_id = $2 AND doc @? $3::jsonpath AND doc @> $4::jsonb
      ORDER BY doc ->> 'createdAt', id${filter.limit === undefined ? '' : ` LIMIT ${filter.limit}`}`,
    [projectKey, STANDALONE_PRICE_TYPE_ID, skuPath(skus), JSON.stringify(match)],
  );
  const prices = found.rows.map((row) => row.doc);
  return filter.staged === true ? prices.map(asStaged) : prices;
}
