/**
 * Project-wide unique values of documents (issue 28): a product's slug per locale and its SKUs,
 * claimed in the statement or transaction that writes the document (documents/unique-values.ts).
 * The primary key makes a second claim of a value fail, also when two writes race (the second
 * waits for the first to commit or roll back), and answers a claim check with one index probe,
 * where the scans of `doc` they replace read every product of the project.
 *
 * The domain of a value is its project, the type of the claiming resource and a field name: a
 * product's slug and a category's slug are independent. Columns are compared under "C" (text
 * equality is the same under every deterministic collation; "C" compares bytes, the cheapest).
 * `unique_values_resource_idx` finds a resource's claims to release them (update, delete).
 *
 * Products stored before this migration claim their values here, the oldest product first; a
 * value two legacy products share stays with the oldest (ON CONFLICT DO NOTHING), and the other
 * keeps it unclaimed until it changes it. The encoding is the one products/uniqueness.ts declares
 * in the gateway: `slug` values are `locale:text`, `sku` values the SKU, from current and staged.
 * Values longer than 1,024 bytes are claimed by their SHA-256 (a btree entry has a size limit).
 */
export const uniqueValues = `
CREATE TABLE unique_values (
  project_key text COLLATE "C" NOT NULL,
  type_id     text COLLATE "C" NOT NULL,
  field       text COLLATE "C" NOT NULL,
  value       text COLLATE "C" NOT NULL,
  resource_id text COLLATE "C" NOT NULL,
  PRIMARY KEY (project_key, type_id, field, value)
);
CREATE INDEX unique_values_resource_idx ON unique_values (project_key, type_id, resource_id);

WITH product_data AS (
  SELECT r.project_key, r.id, r.created_at, r.doc -> 'masterData' -> which.name AS data
  FROM resources r CROSS JOIN (VALUES ('current'), ('staged')) AS which(name)
  WHERE r.type_id = 'product'
),
product_values AS (
  SELECT project_key, id, created_at, 'slug' AS field, slug.key || ':' || slug.value AS value
  FROM product_data CROSS JOIN LATERAL jsonb_each_text(
    CASE jsonb_typeof(data -> 'slug') WHEN 'object' THEN data -> 'slug' ELSE '{}'::jsonb END) AS slug
  UNION ALL
  SELECT project_key, id, created_at, 'sku', variant ->> 'sku'
  FROM product_data CROSS JOIN LATERAL jsonb_path_query(data, 'lax $.masterVariant') AS variant
  WHERE jsonb_typeof(variant -> 'sku') = 'string'
  UNION ALL
  SELECT project_key, id, created_at, 'sku', variant ->> 'sku'
  FROM product_data CROSS JOIN LATERAL jsonb_path_query(data, 'lax $.variants[*]') AS variant
  WHERE jsonb_typeof(variant -> 'sku') = 'string'
)
INSERT INTO unique_values (project_key, type_id, field, value, resource_id)
SELECT project_key, 'product', field,
  CASE WHEN octet_length(value) <= 1024 THEN value ELSE 'sha256:' || encode(sha256(convert_to(value, 'UTF8')), 'hex') END,
  id
FROM product_values
ORDER BY created_at, id
ON CONFLICT DO NOTHING;
`;
