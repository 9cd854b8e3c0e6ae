import type { Queryable } from '@herald/store';
import type { Load } from '../shared/references.js';
import type { NestedAttributeTypes } from './attribute-value.js';
import { innermostType, PRODUCT_TYPE_TYPE_ID, type AttributeDefinition, type ProductType } from './product-type.js';

function nestedTypeIds(definitions: readonly AttributeDefinition[]): string[] {
  return definitions.flatMap(({ type }) => {
    const innermost = innermostType(type);
    return innermost.name === 'nested' ? [innermost.typeReference.id] : [];
  });
}

/**
 * The attribute definitions of every ProductType that `definitions` nest, at any depth, for
 * attributeValueError. A nested ProductType deleted meanwhile is left out (its values then fail
 * as of an unknown type); each ProductType is read once, so a type nesting itself ends the walk.
 */
export async function loadNestedAttributeTypes(definitions: readonly AttributeDefinition[], load: Load): Promise<NestedAttributeTypes> {
  const loaded = new Map<string, readonly AttributeDefinition[]>();
  const pending = nestedTypeIds(definitions);
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (loaded.has(id)) continue;
    const productType = await load<ProductType>(PRODUCT_TYPE_TYPE_ID, { id });
    if (productType === undefined) continue;
    loaded.set(id, productType.attributes);
    pending.push(...nestedTypeIds(productType.attributes));
  }
  return loaded;
}

/**
 * The ProductTypes with an attribute of type `nested` (at any depth of sets) pointing at
 * `productTypeId`: their products hold values of that type (AttributeNestedType), which follow its
 * changes as the type's own products do (products/follow-product-type.ts).
 */
export async function productTypesNesting(db: Queryable, projectKey: string, productTypeId: string): Promise<ProductType[]> {
  const found = await db.query<{ doc: ProductType }>(
    `SELECT doc FROM resources WHERE project_key = $1 AND type_id = $2
        AND jsonb_path_exists(doc, '$.attributes[*].type.** ? (@.typeId == "product-type" && @.id == $id)', jsonb_build_object('id', $3::text))
      ORDER BY id`,
    [projectKey, PRODUCT_TYPE_TYPE_ID, productTypeId],
  );
  return found.rows.map(({ doc }) => doc);
}
