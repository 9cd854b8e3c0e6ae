import type { FieldRoot } from '@herald/store';

/**
 * Where each field of a ProductProjection (types/product/ProductProjection.raml) lives in the stored
 * Product: the product's own fields at the root, `published` and `hasStagedChanges` in
 * `masterData`, and every ProductData field in `masterData.current` or `masterData.staged`.
 * Predicates and sorts of `/product-projections` are written against the projection and run
 * against the product in place (so the GIN index on the document answers them).
 */
const PRODUCT_FIELDS: ReadonlySet<string> = new Set([
  'id',
  'key',
  'version',
  'createdAt',
  'lastModifiedAt',
  'productType',
  'taxCategory',
  'state',
  'priceMode',
  'reviewRatingStatistics',
]);
const CATALOG_FIELDS: ReadonlySet<string> = new Set(['published', 'hasStagedChanges']);

export function projectionFieldRoot(staged: boolean): FieldRoot {
  const data = ['masterData', staged ? 'staged' : 'current'];
  return (field) => {
    if (PRODUCT_FIELDS.has(field)) return [];
    if (CATALOG_FIELDS.has(field)) return ['masterData'];
    return data;
  };
}

/** The SQL condition (over the row alias `r`) of products that have a current projection. */
export const PUBLISHED_SQL = `r.doc @> '{"masterData":{"published":true}}'::jsonb`;

/**
 * A stored product as a projection reads it (over the row alias `r`): without the data version
 * the projection does not answer, which is about half of a product's JSON to send and parse.
 */
export function projectionDocumentSql(staged: boolean): string {
  return `r.doc #- '{masterData,${staged ? 'current' : 'staged'}}'`;
}
