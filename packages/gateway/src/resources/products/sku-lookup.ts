import type { Queryable } from '@herald/store';
import { allVariants, PRODUCT_TYPE_ID, type Product } from './product.js';

/**
 * The product whose current data has a variant with `sku` (line items of carts and shopping lists
 * resolve against the current projection); `published` also requires the product to be published.
 * `@?` and `@>` are answered by the GIN index on `doc` (the jsonpath shape of uniqueness.ts).
 */
export async function productWithCurrentSku(db: Queryable, projectKey: string, sku: string, { published = false } = {}): Promise<Product | undefined> {
  const found = await db.query<{ doc: Product }>(`${productsWithSkusSql(published)} LIMIT 1`, [projectKey, PRODUCT_TYPE_ID, skuPathIn('current', [sku])]);
  return found.rows[0]?.doc;
}

/**
 * The products of several SKUs in one query (a cart draft's line items): each SKU maps to the
 * product whose current data has it, and SKUs no product has are absent from the map.
 */
export async function productsWithCurrentSkus(
  db: Queryable,
  projectKey: string,
  skus: readonly string[],
  { published = false } = {},
): Promise<Map<string, Product>> {
  const wanted = new Set(skus);
  const bySku = new Map<string, Product>();
  if (wanted.size === 0) return bySku;
  // A SKU is unique among products, so there are at most as many products as SKUs.
  const found = await db.query<{ doc: Product }>(`${productsWithSkusSql(published)} LIMIT ${wanted.size}`, [
    projectKey,
    PRODUCT_TYPE_ID,
    skuPathIn('current', [...wanted]),
  ]);
  for (const { doc } of found.rows) {
    for (const { sku } of allVariants(doc.masterData.current)) if (sku !== undefined && wanted.has(sku) && !bySku.has(sku)) bySku.set(sku, doc);
  }
  return bySku;
}

function productsWithSkusSql(published: boolean): string {
  const publishedOnly = published ? ` AND doc @> '{"masterData": {"published": true}}'::jsonb` : '';
  return `SELECT doc FROM resources WHERE project_key = $1 AND type_id = $2 AND doc @? $3::jsonpath${publishedOnly}`;
}

/**
 * One jsonpath naming every SKU in the current data (`current`) or in either data version (`*`):
 * JSON string literals are valid jsonpath strings, and the GIN index on `doc` answers the `||`.
 */
export function skuPathIn(data: 'current' | '*', skus: readonly string[]): string {
  const tests = skus.map((sku) => JSON.stringify(sku)).flatMap((value) => [`@.masterVariant.sku == ${value}`, `@.variants[*].sku == ${value}`]);
  return `$.masterData.${data} ? (${tests.join(' || ')})`;
}
