/**
 * The stores every benchmark target is seeded with: the same ids, keys and documents on Herald
 * (bulk SQL, the rows the API writes) and on the in-memory mock (its own `unsafeAdd`), so that a
 * GET by id asks every target for the same resources.
 */
import type { Queryable } from '@herald/store';

/** A v4-shaped UUID made from the store's number: the load generator knows every id without asking. */
export function benchStoreId(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

/** BENCH_STORES (default 100,000 as issue 30 measures). */
export function benchStoreCount(env: NodeJS.ProcessEnv = process.env): number {
  const count = Number(env.BENCH_STORES ?? 100_000);
  if (!Number.isInteger(count) || count < 1) throw new Error(`BENCH_STORES must be a positive integer (got ${env.BENCH_STORES})`);
  return count;
}

export interface BenchStore {
  id: string;
  key: string;
  version: number;
  createdAt: string;
  lastModifiedAt: string;
  name: { en: string };
  languages: string[];
  countries: never[];
  distributionChannels: never[];
  supplyChannels: never[];
  productSelections: never[];
}

export function benchStore(n: number): BenchStore {
  const at = new Date(Date.UTC(2026, 0, 1) + n * 1_000).toISOString();
  return {
    id: benchStoreId(n),
    key: `store-${n}`,
    version: 1,
    createdAt: at,
    lastModifiedAt: at,
    name: { en: `City ${n % 1000}` },
    languages: ['en'],
    countries: [],
    distributionChannels: [],
    supplyChannels: [],
    productSelections: [],
  };
}

/** Inserts stores 1..count of project `bench` in one statement (PostgreSQL and PGlite alike). */
export async function seedHeraldStores(db: Queryable, count: number): Promise<void> {
  await db.query(`DELETE FROM resources WHERE project_key = 'bench' AND type_id = 'store'`);
  await db.query(
    `INSERT INTO resources (project_key, type_id, id, key, version, created_at, last_modified_at, doc)
     SELECT 'bench', 'store', s.id, s.key, 1, s.at::timestamptz, s.at::timestamptz,
            jsonb_build_object('id', s.id, 'version', 1, 'key', s.key, 'createdAt', s.at, 'lastModifiedAt', s.at,
              'name', jsonb_build_object('en', 'City ' || (n % 1000)), 'languages', jsonb_build_array('en'),
              'countries', jsonb_build_array(), 'distributionChannels', jsonb_build_array(), 'supplyChannels', jsonb_build_array(),
              'productSelections', jsonb_build_array())
     FROM (SELECT n, '00000000-0000-4000-8000-' || lpad(to_hex(n), 12, '0') AS id, 'store-' || n AS key,
                  to_char(timestamptz '2026-01-01' + n * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
           FROM generate_series(1, $1::int) AS n) s`,
    [count],
  );
  await db.exec('VACUUM ANALYZE resources');
}
