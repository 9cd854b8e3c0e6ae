import { duplicateField, type LocalizedString } from '@herald/model';
import type { Queryable } from '@herald/store';
import { PRODUCT_TYPE_ID } from './product.js';

/*
 * The project-wide unique fields of a Product (reference ProductDraft): `slug` per locale and the
 * variants' `sku`, in current or staged data of any other product. Checks read before the write
 * (as States' changeType does): a guard against mistakes; two creates racing with one slug are an
 * accepted race. `@?` jsonpath equalities are answered by the GIN jsonb_path_ops index on `doc`.
 */

/** 400 DuplicateField (field `slug`) when another product has one of `slugs`' texts in the same locale. */
export async function assertSlugFree(db: Queryable, projectKey: string, slugs: LocalizedString, selfId = ''): Promise<void> {
  for (const [locale, text] of Object.entries(slugs)) {
    const path = `$.masterData.*.slug ? (@.${JSON.stringify(locale)} == ${JSON.stringify(text)})`;
    if (await otherProductMatches(db, projectKey, path, selfId)) throw duplicateField('slug', text);
  }
}

/** 400 DuplicateField (field `sku`) when another product has a variant with this SKU. */
export async function assertSkuFree(db: Queryable, projectKey: string, sku: string, selfId = ''): Promise<void> {
  const value = JSON.stringify(sku);
  const path = `$.masterData.* ? (@.masterVariant.sku == ${value} || @.variants[*].sku == ${value})`;
  if (await otherProductMatches(db, projectKey, path, selfId)) throw duplicateField('sku', sku);
}

async function otherProductMatches(db: Queryable, projectKey: string, jsonpath: string, selfId: string): Promise<boolean> {
  const found = await db.query<{ id: string }>(
    'SELECT id FROM resources WHERE project_key = $1 AND type_id = $2 AND id <> $3 AND doc @? $4::jsonpath LIMIT 1',
    [projectKey, PRODUCT_TYPE_ID, selfId, jsonpath],
  );
  return found.rows.length > 0;
}
