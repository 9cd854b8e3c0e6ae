/**
 * Issue 28 benchmark: the catalogue on PostgreSQL, in one run, through HTTP from a separate process.
 * - (a) store creates/s: `POST /{projectKey}/stores`, the baseline write;
 * - (b) product creates/s: PRODUCTS products (argument 1, default 10,000) of 10 variants each,
 *   every variant with an EUR price and an EUR price for DE, published by the draft;
 * - (c) a product projection page with price selection (`priceCurrency=EUR&priceCountry=DE`,
 *   a `where` on a field, sort, limit 20): p50/p99; a `/product-projections/search` page with a
 *   filter and a facet: p50/p99, once narrowed in SQL (`filter.query` on a SKU term) and once not
 *   (`filter` with a facet: every hit's search terms are read, only the page's products);
 * - (d) cart creates/s with 5 line items by SKU, priced from the catalogue.
 * Writes run 8 at a time (closed loop, keep-alive); reads one at a time. Store and cart creates
 * run in alternating rounds (BENCH_ROUNDS, default 3) after the reads, so that the host's load
 * falls on both alike: the cart/store ratio is the median of the rounds' ratios. Usage:
 *   npm run bench catalogue                      (10,000 products)
 *   npx tsx --conditions=@herald/source packages/gateway/bench/catalogue.ts 1000
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { Agent, request } from 'node:http';
import pg from 'pg';
import { cpuDuring, ownCpu, parentPid, percentile, processesCpu, runHttpLoad, treeCpu, type CpuSource, type LoadResult } from '@herald/testkit';
import { containerNodeFlags, startChild, stopChild } from './_child.js';

const databaseUrl = process.env.DATABASE_URL;
if (databaseUrl === undefined || !databaseUrl.startsWith('postgres')) {
  console.log('## Catalogue (issue 28)\n\nSkipped: needs DATABASE_URL pointing at PostgreSQL.\n');
  process.exit(0);
}
const PRODUCTS = Number(process.argv[2] ?? process.env.BENCH_PRODUCTS ?? 10_000);
const VARIANTS = 10;
const STORES = Number(process.env.BENCH_STORES ?? 1_000);
const CARTS = Number(process.env.BENCH_CARTS ?? 1_000);
const IN_FLIGHT = 8;
const READ_MS = Number(process.env.BENCH_READ_MS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const P = 'bench';
const here = import.meta.dirname;
const step = (what: string) => process.stderr.write(`[catalogue] ${what}\n`);
const fmt = (value: number, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Removes what an earlier run left in the bench project (the rows the API wrote). */
async function clean(): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`DELETE FROM resources WHERE project_key = $1 AND type_id IN ('cart', 'product', 'product-type', 'store')`, [P]);
    // The products' slugs and SKUs stay claimed until released (migration 012): released with them.
    await client.query(`DELETE FROM unique_values WHERE project_key = $1`, [P]);
    // …and their search terms (migration 015) go with them.
    await client.query(`DELETE FROM search_terms WHERE project_key = $1`, [P]);
  } finally {
    await client.end();
  }
}

async function token(url: string): Promise<string> {
  const scopes = ['manage_products', 'manage_product_types', 'manage_stores', 'manage_orders'].map((scope) => `${scope}:${P}`).join(' ');
  const response = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from('bench-client:bench-secret-0123456789').toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: `grant_type=client_credentials&scope=${encodeURIComponent(scopes)}`,
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

interface WriteResult {
  count: number;
  seconds: number;
  /** Each create's latency in ms, sorted. */
  latencies: number[];
  errors: number;
  firstError?: string;
  perSecond: number;
  p50: number;
  p99: number;
  /** CPU ms each process spent on the creates (gateway, PostgreSQL cluster, this client). */
  cpuMs: Record<CpuSide, number>;
}

const CPU_SIDES = ['gateway', 'postgres', 'client'] as const;
type CpuSide = (typeof CPU_SIDES)[number];

/** POSTs `count` bodies, IN_FLIGHT at a time over keep-alive connections; creates/s over the whole run. */
async function createAll(baseUrl: string, path: string, auth: string, count: number, body: (index: number) => unknown): Promise<WriteResult> {
  const target = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  let firstError: string | undefined;
  const post = (payload: string) =>
    new Promise<{ status: number; text: string }>((done) => {
      const req = request(
        {
          host: target.hostname,
          port: target.port,
          method: 'POST',
          path,
          agent,
          headers: { authorization: auth, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
          res.on('end', () => done({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', (error) => done({ status: 0, text: String(error) }));
      req.end(payload);
    });
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const started = process.hrtime.bigint();
      const answer = await post(JSON.stringify(body(index)));
      latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (answer.status !== 201) {
        errors++;
        firstError ??= `${answer.status} ${answer.text.slice(0, 300)}`;
      }
      if (index > 0 && index % 1000 === 0) step(`${path}: ${index} of ${count}`);
    }
  };
  const started = Date.now();
  const cpuMs = await cpuDuring(cpuSources, async () => {
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  });
  const seconds = (Date.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    count,
    seconds,
    latencies,
    errors,
    ...(firstError === undefined ? {} : { firstError }),
    perSecond: count / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    cpuMs,
  };
}

const COLOURS = ['red', 'blue', 'green', 'white', 'black'];
const sku = (product: number, variant: number) => `bench-${product}-${variant}`;

function productDraft(index: number): unknown {
  const variant = (id: number) => ({
    sku: sku(index, id),
    attributes: [
      { name: 'colour', value: COLOURS[(index + id) % COLOURS.length] },
      { name: 'size', value: 36 + id },
    ],
    prices: [{ value: { currencyCode: 'EUR', centAmount: 1000 + index } }, { value: { currencyCode: 'EUR', centAmount: 900 + index }, country: 'DE' }],
  });
  return {
    key: `bench-${index}`,
    productType: { typeId: 'product-type', key: 'bench-shirts' },
    name: { en: `Bench shirt ${index}` },
    description: { en: `Group ${index % 100}` },
    slug: { en: `bench-shirt-${index}` },
    masterVariant: variant(1),
    variants: Array.from({ length: VARIANTS - 1 }, (_, offset) => variant(offset + 2)),
    publish: true,
  };
}

function storeDraft(index: number): unknown {
  return { key: `bench-store-${index}`, name: { en: `Store ${index}` }, languages: ['en'] };
}

/** The rounds of one kind as one result: creates over their summed time, latencies of them all. */
function combined(rounds: readonly WriteResult[]): WriteResult {
  const latencies = rounds.flatMap((round) => round.latencies).sort((a, b) => a - b);
  const count = rounds.reduce((sum, round) => sum + round.count, 0);
  const seconds = rounds.reduce((sum, round) => sum + round.seconds, 0);
  const firstError = rounds.find((round) => round.firstError !== undefined)?.firstError;
  return {
    count,
    seconds,
    latencies,
    errors: rounds.reduce((sum, round) => sum + round.errors, 0),
    ...(firstError === undefined ? {} : { firstError }),
    perSecond: count / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    cpuMs: Object.fromEntries(CPU_SIDES.map((side) => [side, rounds.reduce((sum, round) => sum + round.cpuMs[side], 0)])) as Record<CpuSide, number>,
  };
}

function cartDraft(index: number): unknown {
  const lineItems = Array.from({ length: 5 }, (_, item) => ({ sku: sku((index * 5 + item * 7) % PRODUCTS, 1 + (item % VARIANTS)), quantity: 1 + item }));
  return { currency: 'EUR', country: 'DE', lineItems };
}

async function createProductType(url: string, auth: string): Promise<void> {
  const response = await fetch(`${url}/${P}/product-types`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      key: 'bench-shirts',
      name: 'Bench shirts',
      description: 'Bench shirts',
      attributes: [
        { name: 'colour', label: { en: 'Colour' }, isRequired: false, isSearchable: true, type: { name: 'text' } },
        { name: 'size', label: { en: 'Size' }, isRequired: false, isSearchable: true, type: { name: 'number' } },
      ],
    }),
  });
  if (response.status !== 201) throw new Error(`product type: ${response.status} ${await response.text()}`);
}

const read = (url: string, auth: string, query: string): Promise<LoadResult> =>
  runHttpLoad({ url: `${url}/${P}/${query}`, concurrency: 1, durationMs: READ_MS, warmupMs: 1000, headers: { authorization: auth } });

async function totalOf(url: string, auth: string, query: string): Promise<number> {
  const response = await fetch(`${url}/${P}/${query}`, { headers: { authorization: auth } });
  const body = (await response.json()) as { total?: number; statusCode?: number; message?: string };
  if (response.status !== 200) throw new Error(`${query}: ${response.status} ${body.message ?? ''}`);
  return body.total ?? -1;
}

/** The PostgreSQL cluster's processes when it runs on this machine (a backend's parent is the postmaster), else nothing. */
async function postgresCpu(): Promise<CpuSource> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const postmaster = parentPid(rows[0]!.pid);
    return postmaster === undefined ? () => new Map() : treeCpu(postmaster);
  } finally {
    await client.end();
  }
}

const loadNow = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ');

const env = { ...process.env, DATABASE_URL: databaseUrl };
step(`herald server (${fmt(PRODUCTS)} products of ${VARIANTS} variants)`);
// As the container image runs it (its Node flags).
const herald = await startChild(resolve(here, '_serve.ts'), ['herald'], env, containerNodeFlags());
process.on('exit', () => herald.child.kill('SIGKILL'));
await clean();
const cpuSources: Record<CpuSide, CpuSource> = { gateway: processesCpu([herald.child.pid!]), postgres: await postgresCpu(), client: ownCpu };
const auth = `Bearer ${await token(herald.url)}`;
const loadAtStart = loadNow();

step('product creates');
await createProductType(herald.url, auth);
const products = await createAll(herald.url, `/${P}/products`, auth, PRODUCTS, productDraft);
const client = new pg.Client({ connectionString: databaseUrl });
await client.connect();
// Statistics as autovacuum keeps them in steady state: right after the bulk write, the planner
// would still believe the tables empty (the reads would measure that, not the catalogue).
await client.query('VACUUM ANALYZE resources, search_terms, unique_values');
await client.end();

const projectionQuery = `product-projections?${new URLSearchParams({
  priceCurrency: 'EUR',
  priceCountry: 'DE',
  where: 'description(en = "Group 42")',
  sort: 'key asc',
  limit: '20',
})}`;
const narrowedSearch = `product-projections/search?${new URLSearchParams([
  ['priceCurrency', 'EUR'],
  ['priceCountry', 'DE'],
  ['filter.query', `variants.sku:"${sku(42, 1)}","${sku(4242 % PRODUCTS, 1)}","${sku(424 % PRODUCTS, 1)}"`],
  ['facet', 'variants.attributes.colour'],
  ['limit', '20'],
])}`;
const fullSearch = `product-projections/search?${new URLSearchParams([
  ['priceCurrency', 'EUR'],
  ['priceCountry', 'DE'],
  ['filter', 'variants.attributes.colour:"red"'],
  ['facet', 'variants.attributes.size'],
  ['limit', '20'],
])}`;
step('projection page');
const projectionTotal = await totalOf(herald.url, auth, projectionQuery);
const projection = await read(herald.url, auth, projectionQuery);
step('narrowed search');
const narrowedTotal = await totalOf(herald.url, auth, narrowedSearch);
const narrowed = await read(herald.url, auth, narrowedSearch);
step('search over every product');
const fullTotal = await totalOf(herald.url, auth, fullSearch);
const full = await read(herald.url, auth, fullSearch);
const storeRounds: WriteResult[] = [];
const cartRounds: WriteResult[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const [storesPer, cartsPer] = [Math.ceil(STORES / ROUNDS), Math.ceil(CARTS / ROUNDS)];
  step(`store creates, round ${round + 1} of ${ROUNDS}`);
  storeRounds.push(await createAll(herald.url, `/${P}/stores`, auth, storesPer, (index) => storeDraft(round * storesPer + index)));
  step(`cart creates, round ${round + 1} of ${ROUNDS}`);
  cartRounds.push(await createAll(herald.url, `/${P}/carts`, auth, cartsPer, (index) => cartDraft(round * cartsPer + index)));
}
const stores = combined(storeRounds);
const carts = combined(cartRounds);
const loadAtEnd = loadNow();
await stopChild(herald.child);

const writeRow = (what: string, result: WriteResult) =>
  `| ${what} | ${fmt(result.perSecond, 1)} creates/s (p50 ${fmt(result.p50, 1)} ms, p99 ${fmt(result.p99, 1)} ms), errors ${result.errors}${result.firstError === undefined ? '' : ` (first: ${result.firstError.replace(/\|/g, '/')})`}`;
const readRow = (what: string, total: number, result: LoadResult) =>
  `| ${what} (total ${fmt(total)}) | p50 ${fmt(result.latencyMs.p50, 2)} ms, p99 ${fmt(result.latencyMs.p99, 2)} ms (${fmt(result.requests)} requests), errors ${result.errors}`;
const cpuPerCreate = (result: WriteResult) => CPU_SIDES.map((side) => `${fmt((result.cpuMs[side] * 1000) / result.count)} µs`).join(' / ');
const roundRatios = cartRounds.map((cartRound, round) => (cartRound.perSecond / storeRounds[round]!.perSecond) * 100);
const ratio = [...roundRatios].sort((a, b) => a - b)[Math.floor(roundRatios.length / 2)]!;

console.log(`## Catalogue (issue 28)

Herald on PostgreSQL; ${fmt(STORES)} stores, ${fmt(PRODUCTS)} products of ${VARIANTS} variants (2 EUR prices each, published by the draft), ${fmt(CARTS)} carts of 5 line items by SKU; writes ${IN_FLIGHT} in flight, reads one at a time for ${READ_MS / 1000} s, from a separate process on loopback. Load average at the start ${loadAtStart}, at the end ${loadAtEnd}.

| Measurement | Result | Target |
|---|---|---|
${writeRow('(a) `POST /stores`', stores)} | — |
${writeRow(`(b) \`POST /products\`, ${VARIANTS} variants each`, products)} | — |
${readRow('(c) `GET /product-projections?priceCurrency=EUR&priceCountry=DE&where=description(en = "Group 42")&sort=key asc&limit=20`', projectionTotal, projection)} | p99 < 30 ms |
${readRow('(c) `GET /product-projections/search`, `filter.query` on 3 SKUs (narrowed in SQL), a terms facet, price selection', narrowedTotal, narrowed)} | — |
${readRow('(c) `GET /product-projections/search`, `filter` on an attribute with a terms facet (no narrowing `filter.query`), price selection', fullTotal, full)} | — |
${writeRow('(d) `POST /carts`, 5 line items by SKU', carts)} | — |
| CPU per create, gateway / PostgreSQL / bench client (PostgreSQL when on this machine) | stores ${cpuPerCreate(stores)}; carts ${cpuPerCreate(carts)} | — |
| Cart-by-SKU creates / store creates, median of ${ROUNDS} alternating rounds | ${fmt(ratio, 1)} % (rounds ${roundRatios.map((value) => fmt(value, 1)).join(', ')}) | ≥ 50 % |
`);
