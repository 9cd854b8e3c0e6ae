/**
 * Customer groups, inventory entries, shipping methods and payments claim their unique values in
 * `unique_values` (migration 012) from now on, where the gateway searched the documents before
 * writing; the documents stored before claim theirs here, the oldest first. A value two legacy
 * documents share stays with the oldest (ON CONFLICT DO NOTHING); the other keeps it unclaimed
 * until it changes it. The texts are the ones the gateway declares:
 * - customer-group `name` (customer-groups/unique-name.ts) and shipping-method `name`
 *   (shipping-methods/uniqueness.ts): the name;
 * - inventory-entry `sku` (inventory/unique-sku.ts): the supply channel's id as a JSON string, or
 *   `null` without one, a colon and the SKU;
 * - payment `interfaceId` (payments/interface-uniqueness.ts), only when both are set: the
 *   paymentInterface as a JSON string, a colon and the interfaceId.
 * A jsonb string's text is its JSON form, escaped as JSON.stringify escapes it. Values longer than
 * 1,024 bytes by their SHA-256, as migration 012.
 */
export const gatewayUniqueClaims = `
WITH claimable AS (
  SELECT project_key, type_id, id, created_at, 'name' AS field, doc ->> 'name' AS value
  FROM resources
  WHERE type_id IN ('customer-group', 'shipping-method') AND jsonb_typeof(doc -> 'name') = 'string'
  UNION ALL
  SELECT project_key, type_id, id, created_at, 'sku', coalesce(doc -> 'supplyChannel' -> 'id', 'null'::jsonb)::text || ':' || (doc ->> 'sku')
  FROM resources
  WHERE type_id = 'inventory-entry' AND jsonb_typeof(doc -> 'sku') = 'string'
  UNION ALL
  SELECT project_key, type_id, id, created_at, 'interfaceId', (doc -> 'paymentMethodInfo' -> 'paymentInterface')::text || ':' || (doc ->> 'interfaceId')
  FROM resources
  WHERE type_id = 'payment' AND jsonb_typeof(doc -> 'interfaceId') = 'string'
    AND jsonb_typeof(doc -> 'paymentMethodInfo' -> 'paymentInterface') = 'string'
)
INSERT INTO unique_values (project_key, type_id, field, value, resource_id)
SELECT project_key, type_id, field,
  CASE WHEN octet_length(value) <= 1024 THEN value ELSE 'sha256:' || encode(sha256(convert_to(value, 'UTF8')), 'hex') END,
  id
FROM claimable
ORDER BY created_at, id
ON CONFLICT DO NOTHING;
`;
