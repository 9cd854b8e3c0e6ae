import type { Queryable } from '@herald/store';
import { PRODUCT_TYPE_ID, type Product } from './product.js';

/**
 * The product whose current data has a variant with `sku` (line items of carts and shopping lists
 * resolve against the current projection); `published` also requires the product to be published.
 * `@?` and `@>` are answered by the GIN index on `doc` (the jsonpath shape of uniqueness.ts).
 */
export async function productWithCurrentSku(db: Queryable, projectKey: string, sku: string, { published = false } = {}): Promise<Product | undefined> {
  const value = JSON.stringify(sku);
  const publishedOnly = published ? ` AND doc @> '{"masterData": {"published": true}}'::jsonb` : '';
  const found = await db.query<{ doc: Product }>(
    `SELECT doc FROM resources WHERE project_key = $1 AND type_id = $2 AND doc @? $3::jsonpath${publishedOnly} LIMIT 1`,
    [projectKey, PRODUCT_TYPE_ID, `$.masterData.current ? (@.masterVariant.sku == ${value} || @.variants[*].sku == ${value})`],
  );
  return found.rows[0]?.doc;
}
