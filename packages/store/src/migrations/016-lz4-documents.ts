/**
 * Documents above about 2 kB (products with their variants and prices, carts with copied line
 * items) are stored compressed (TOAST). PostgreSQL's default method, pglz, costs a product page
 * about 25 µs per document read and more per write; lz4 takes less than half of that on both sides
 * (docs/benchmarks.md). Every predicate on `doc` decompresses the row again, so a filtered page pays
 * it several times per row.
 *
 * Only servers built with lz4 offer it (`default_toast_compression`'s values; PGlite has none):
 * elsewhere this changes nothing. Rows keep the method they were written with until rewritten.
 */
export const lz4Documents = `
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
    ALTER TABLE resources ALTER COLUMN doc SET COMPRESSION lz4;
    ALTER TABLE messages ALTER COLUMN doc SET COMPRESSION lz4;
    ALTER TABLE outbox ALTER COLUMN payload SET COMPRESSION lz4;
    ALTER TABLE deliveries ALTER COLUMN payload SET COMPRESSION lz4;
    ALTER TABLE dropped_deliveries ALTER COLUMN payload SET COMPRESSION lz4;
  END IF;
END
$$;`;
