/**
 * Discount codes claim their `code` in `unique_values` (migration 012) from now on
 * (discount-codes/fields.ts in the gateway): the codes stored before claim theirs here, the oldest
 * first; a code two legacy discount codes share stays with the oldest (ON CONFLICT DO NOTHING).
 * Values longer than 1,024 bytes by their SHA-256, as migration 012 (codes are at most 256 characters).
 */
export const discountCodeClaims = `
INSERT INTO unique_values (project_key, type_id, field, value, resource_id)
SELECT project_key, 'discount-code', 'code',
  CASE WHEN octet_length(doc ->> 'code') <= 1024 THEN doc ->> 'code'
       ELSE 'sha256:' || encode(sha256(convert_to(doc ->> 'code', 'UTF8')), 'hex') END,
  id
FROM resources
WHERE type_id = 'discount-code' AND jsonb_typeof(doc -> 'code') = 'string'
ORDER BY created_at, id
ON CONFLICT DO NOTHING;
`;
