import type { Queryable } from '@herald/store';
import { allVariants, PRODUCT_TYPE_ID, type Product } from './product.js';

/**
 * The product whose current data has a variant with `sku` (line items of carts and shopping lists
 * resolve against the current projection); `published` also requires the product to be published.
 */
export async function productWithCurrentSku(db: Queryable, projectKey: string, sku: string, { published = false } = {}): Promise<Product | undefined> {
  return (await productsWithCurrentSkus(db, projectKey, [sku], { published })).get(sku);
}

/**
 * The products of several SKUs (a cart draft's line items): each SKU maps to the product whose
 * current data has it, and SKUs no product has are absent from the map.
 *
 * First through the SKUs' unique-value claims (products/uniqueness.ts): an index probe per SKU
 * and a read of the claiming products, whatever the plan of the moment. The jsonpath on `doc`
 * answers only the SKUs that finds no current product for (a claim names the oldest of two
 * products stored with one SKU before claims existed, migration 012): the GIN index answers it,
 * but a planner that believes the products' table small (their documents live in TOAST) scans
 * it instead, decompressing every product: a cart create took 5 ms of database time at 300
 * products, where the claims take a fraction of a millisecond at any size.
 */
export async function productsWithCurrentSkus(
  db: Queryable,
  projectKey: string,
  skus: readonly string[],
  { published = false } = {},
): Promise<Map<string, Product>> {
  const wanted = new Set(skus);
  if (wanted.size === 0) return new Map();
  const claimed = await db.query<{ doc: Product }>(CLAIMED_SKU_PRODUCTS_SQL, [projectKey, PRODUCT_TYPE_ID, [...wanted]]);
  return withUnclaimedSkus(db, projectKey, wanted, productsBySku(claimed.rows, wanted, published), published);
}

/**
 * The products claiming SKUs ($1 the project, $2 the product type id, $3 the SKUs): the claimed ids
 * first (an InitPlan), then the products by id. No condition on `doc` here, which a planner could
 * answer by decompressing every product; `published` is the caller's to check.
 */
export const CLAIMED_SKU_PRODUCTS_SQL = `SELECT r.doc FROM resources r
  WHERE r.project_key COLLATE "C" = $1 AND r.type_id COLLATE "C" = $2 AND r.id COLLATE "C" = ANY (ARRAY(
    SELECT u.resource_id FROM unique_values u
     WHERE u.project_key = $1 AND u.type_id = $2 AND u.field = 'sku' AND u.value = ANY ($3::text[])))`;

/**
 * CLAIMED_SKU_PRODUCTS_SQL answering only what a line item copies: each product without its staged
 * data and with only the current variants of the SKUs asked for (and its master variant). A cart's
 * five SKUs of ten-variant products were 50 kB of JSON to send and parse per cart; this is a fifth.
 * The document is decompressed once (`d`, not flattened into the outer query), not per field read.
 */
export const CLAIMED_SKU_VARIANTS_SQL = `SELECT (d - 'masterData') || jsonb_build_object('masterData', jsonb_build_object(
    'published', d -> 'masterData' -> 'published',
    'current', (d -> 'masterData' -> 'current') || jsonb_build_object('variants', COALESCE((
      SELECT jsonb_agg(v ORDER BY n) FROM jsonb_array_elements(d -> 'masterData' -> 'current' -> 'variants') WITH ORDINALITY AS e(v, n)
       WHERE v ->> 'sku' = ANY ($3::text[])), '[]'::jsonb)))) AS doc
  FROM (${CLAIMED_SKU_PRODUCTS_SQL}) claimed CROSS JOIN LATERAL (SELECT claimed.doc || '{}'::jsonb AS d OFFSET 0) decompressed`;

/** Each of `wanted` that the current data of one of `rows` has, mapped to that product (only published ones when asked). */
export function productsBySku(rows: ReadonlyArray<{ doc: Product }>, wanted: ReadonlySet<string>, published: boolean): Map<string, Product> {
  const bySku = new Map<string, Product>();
  mapCurrentSkus(
    rows.filter(({ doc }) => !published || doc.masterData.published),
    wanted,
    bySku,
  );
  return bySku;
}

/**
 * `bySku` completed by the jsonpath on `doc` for the SKUs the claims found no current product for
 * (a claim names the oldest of two products stored with one SKU before claims existed).
 */
export async function withUnclaimedSkus(
  db: Queryable,
  projectKey: string,
  wanted: ReadonlySet<string>,
  bySku: Map<string, Product>,
  published: boolean,
): Promise<Map<string, Product>> {
  const unresolved = [...wanted].filter((sku) => !bySku.has(sku));
  if (unresolved.length === 0) return bySku;
  // A SKU is unique among products, so there are at most as many products as SKUs.
  const scanned = await db.query<{ doc: Product }>(`${productsWithSkusSql(published)} LIMIT ${unresolved.length}`, [
    projectKey,
    PRODUCT_TYPE_ID,
    skuPathIn('current', unresolved),
  ]);
  mapCurrentSkus(scanned.rows, new Set(unresolved), bySku);
  return bySku;
}

const PUBLISHED = `doc @> '{"masterData": {"published": true}}'::jsonb`;

/** Maps each of `wanted` that a product's current data has to that product (the first found). */
function mapCurrentSkus(rows: ReadonlyArray<{ doc: Product }>, wanted: ReadonlySet<string>, bySku: Map<string, Product>): void {
  for (const { doc } of rows) {
    for (const { sku } of allVariants(doc.masterData.current)) if (sku !== undefined && wanted.has(sku) && !bySku.has(sku)) bySku.set(sku, doc);
  }
}

function productsWithSkusSql(published: boolean): string {
  return `SELECT doc FROM resources WHERE project_key = $1 AND type_id = $2 AND doc @? $3::jsonpath${published ? ` AND ${PUBLISHED}` : ''}`;
}

/**
 * One jsonpath naming every SKU in the current data (`current`) or in either data version (`*`):
 * JSON string literals are valid jsonpath strings, and the GIN index on `doc` answers the `||`.
 */
export function skuPathIn(data: 'current' | '*', skus: readonly string[]): string {
  const tests = skus.map((sku) => JSON.stringify(sku)).flatMap((value) => [`@.masterVariant.sku == ${value}`, `@.variants[*].sku == ${value}`]);
  return `$.masterData.${data} ? (${tests.join(' || ')})`;
}
