import type { Queryable } from '@herald/store';
import { referencingType } from '../shared/reference-exists.js';
import { PRODUCT_TYPE_TYPE_ID } from './product-type.js';

/**
 * The rules of the reference that depend on the products of a ProductType, behind one narrow port:
 * the products slice (issue 28) stores products, and may replace this implementation by one over
 * its own indexes without the ProductType code changing.
 */
export interface ProductTypeUsage {
  /** The type id of one resource that references the ProductType (delete → 400 ReferenceExists), if any. */
  referencedBy(db: Queryable, projectKey: string, productTypeId: string): Promise<string | undefined>;
  /**
   * The keys among `keys` that a product of the ProductType holds as the value of the attribute
   * `attributeName` (or as an element of its set value), in the current or staged data.
   */
  enumKeysInUse(db: Queryable, projectKey: string, productTypeId: string, attributeName: string, keys: readonly string[]): Promise<string[]>;
}

/**
 * Where a Product (reference: types/product/Product.raml) holds attribute values: the product-level
 * `attributes` of its current and staged ProductData, and the `attributes` of their master variant
 * and variants. An enum value is an AttributePlainEnumValue / AttributeLocalizedEnumValue `{key,
 * label}` (lax jsonpath unwraps a set's array), or, as drafts send it, the key itself.
 */
const ATTRIBUTE_HOLDERS = ['$.masterData.*.attributes[*]', '$.masterData.*.masterVariant.attributes[*]', '$.masterData.*.variants[*].attributes[*]'];
const USES_KEY = `$ ? (${ATTRIBUTE_HOLDERS.map((holder) => `exists(${holder} ? (@.name == $name && (@.value.key == $key || @.value == $key)))`).join(' || ')})`;

/**
 * The stored documents answer: products by `productType.id` (ProductTypeReference), and other
 * ProductTypes whose nested attributes (at any depth of sets) point at this one. Carts and orders
 * keep a snapshot of their line items' product type and do not hold it.
 */
export const storedProductUsage: ProductTypeUsage = {
  async referencedBy(db, projectKey, productTypeId) {
    const id = JSON.stringify(productTypeId);
    const product = await referencingType(db, projectKey, `$.productType ? (@.id == ${id})`, ['product']);
    if (product !== undefined) return product;
    return referencingType(db, projectKey, `$.attributes[*].type.** ? (@.typeId == "${PRODUCT_TYPE_TYPE_ID}" && @.id == ${id})`, [PRODUCT_TYPE_TYPE_ID]);
  },

  async enumKeysInUse(db, projectKey, productTypeId, attributeName, keys) {
    if (keys.length === 0) return [];
    const found = await db.query<{ key: string }>(
      `SELECT DISTINCT candidate AS key FROM unnest($4::text[]) AS candidate
        WHERE EXISTS (SELECT 1 FROM resources WHERE project_key = $1 AND type_id = 'product' AND doc -> 'productType' ->> 'id' = $2
          AND jsonb_path_exists(doc, $5::jsonpath, jsonb_build_object('name', $3::text, 'key', candidate)))`,
      [projectKey, productTypeId, attributeName, keys, USES_KEY],
    );
    return found.rows.map(({ key }) => key);
  },
};
