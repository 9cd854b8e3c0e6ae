/**
 * Issue 2 benchmark: durable reads through PostgreSQL.
 * - GET-by-id requests/s through Herald next to a bare Fastify route returning constant JSON.
 * - p50/p99 of a filtered, sorted page over 100,000 stores.
 * Server and load generator run in separate processes on loopback; the 100,000 stores are bulk
 * inserted with SQL (the same rows the API writes) to keep the set-up short.
 */
import { resolve } from 'node:path';
import pg from 'pg';
import { runHttpLoad } from '@herald/testkit';
import { startChild, stopChild } from './_child.js';

const databaseUrl = process.env.DATABASE_URL;
if (databaseUrl === undefined || !databaseUrl.startsWith('postgres')) {
  console.log('## Gateway reads\n\nSkipped: needs DATABASE_URL pointing at PostgreSQL.\n');
  process.exit(0);
}
const STORES = 100_000;
const here = import.meta.dirname;
const env = { ...process.env, DATABASE_URL: databaseUrl };

async function seed(): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`DELETE FROM resources WHERE project_key = 'bench' AND type_id = 'store'`);
    await client.query(
      `INSERT INTO resources (project_key, type_id, id, key, version, created_at, last_modified_at, doc)
       SELECT 'bench', 'store', s.id, s.key, 1, s.at::timestamptz, s.at::timestamptz,
              jsonb_build_object('id', s.id, 'version', 1, 'key', s.key, 'createdAt', s.at, 'lastModifiedAt', s.at,
                'name', jsonb_build_object('en', 'City ' || (n % 1000)), 'languages', jsonb_build_array('en'))
       FROM (SELECT n, gen_random_uuid()::text AS id, 'store-' || n AS key,
                    to_char(timestamptz '2026-01-01' + n * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
             FROM generate_series(1, $1::int) AS n) s`,
      [STORES],
    );
    await client.query('VACUUM ANALYZE resources');
    const ids = await client.query<{ id: string }>(`SELECT id FROM resources WHERE project_key = 'bench' AND type_id = 'store' LIMIT 5000`);
    return ids.rows.map((row) => row.id);
  } finally {
    await client.end();
  }
}

async function token(url: string): Promise<string> {
  const response = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from('bench-client:bench-secret-0123456789').toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials&scope=view_stores:bench',
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

const fmt = (value: number, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const step = (what: string) => process.stderr.write(`[http-reads] ${what}\n`);
step('bare server');
const bare = await startChild(resolve(here, '_serve.ts'), ['bare'], env);
const ceiling = await runHttpLoad({ url: `${bare.url}/x`, concurrency: 32, durationMs: 8000, warmupMs: 2000 });
await stopChild(bare.child);

step('herald server');
const herald = await startChild(resolve(here, '_serve.ts'), ['herald'], env);
// Never leave the server behind, whatever fails below.
process.on('exit', () => herald.child.kill('SIGKILL'));
step('seeding');
const ids = await seed();
step('token');
const auth = { authorization: `Bearer ${await token(herald.url)}` };
step('GET by id');
const byId = await runHttpLoad({
  url: herald.url,
  concurrency: 32,
  durationMs: 8000,
  warmupMs: 2000,
  headers: auth,
  path: (i) => `/bench/stores/${ids[i % ids.length]}`,
});
const page = new URLSearchParams({ where: 'name(en = "City 42") and languages contains any ("en")', sort: 'key desc', limit: '20' });
step('filtered page');
const filtered = await runHttpLoad({
  url: `${herald.url}/bench/stores?${page}`,
  concurrency: 1,
  durationMs: 8000,
  warmupMs: 1000,
  headers: auth,
});
await stopChild(herald.child);

console.log(`## Gateway reads (issue 2)

Herald on PostgreSQL, ${fmt(STORES)} stores; 32 keep-alive connections from a separate process.

| Measurement | Result | Target |
|---|---|---|
| Bare Fastify route, constant JSON (ceiling) | ${fmt(ceiling.requestsPerSecond)} req/s (p99 ${fmt(ceiling.latencyMs.p99, 2)} ms) | — |
| Herald \`GET /{projectKey}/stores/{id}\` with token | ${fmt(byId.requestsPerSecond)} req/s (p99 ${fmt(byId.latencyMs.p99, 2)} ms), errors ${byId.errors} | — |
| Herald / ceiling | ${fmt((byId.requestsPerSecond / ceiling.requestsPerSecond) * 100, 1)} % | ≥ 25 % |
| Filtered, sorted page (\`where=name(en = "City 42") and languages contains any ("en")\`, \`sort=key desc\`, 20 of 100 matches, with total), one client | p50 ${fmt(filtered.latencyMs.p50, 2)} ms, p99 ${fmt(filtered.latencyMs.p99, 2)} ms, errors ${filtered.errors} | p99 < 20 ms |
`);
