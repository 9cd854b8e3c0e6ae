/**
 * Issues 2 and 30: Herald next to the in-memory mock it is compared with.
 * One run measures, with the same client and connections, in alternating rounds (so that the load
 * other processes put on the machine falls on every target alike), each target in its own process
 * on loopback: a bare Fastify route, the mock's HTTP server (@labdigital/commercetools-mock),
 * Herald on PostgreSQL with default durability (a cluster of its own, fsync and synchronous commit
 * on) and Herald on in-memory PGlite. Every target holds the same BENCH_STORES stores (default
 * 100,000). Reports req/s, p99, the ratios issue 30's targets use, and memory after seeding.
 * Issue 2's filtered page is measured once on Herald PostgreSQL (and on the mock, for scale).
 *
 * BENCH_VARIANT='label?param=value&…' adds a second Herald PostgreSQL process on the same database
 * whose DATABASE_URL carries those parameters, for A/B comparisons of driver settings;
 * BENCH_VARIANT_SERVE=<path of another checkout's bench/_serve.ts> runs that process from other
 * code (before/after a change, side by side in the same rounds).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runHttpLoad, type LoadResult } from '@herald/testkit';
import type { ChildProcess } from 'node:child_process';
import { containerNodeFlags, startChild, stopChild } from './_child.js';
import { startDurablePostgres } from './_durable-postgres.js';
import { clusterPssMiB, rssMiB } from './_memory.js';
import { runPostLoad, type PostLoadOptions } from './_post-load.js';
import { benchStoreCount, benchStoreId } from './_stores.js';

const STORES = benchStoreCount();
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 9_000);
const WARMUP_MS = 1_000;
const here = import.meta.dirname;
const serveScript = resolve(here, '_serve.ts');
const step = (what: string) => process.stderr.write(`[http-reads] ${what}\n`);
const fmt = (value: number, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

interface Target {
  name: string;
  url: string;
  pid: number;
  /** Path of a GET by id, of a create and of an update of store n (the bare route answers all on /x). */
  byIdPath: (sequence: number) => string;
  createPath: string;
  updatePath: (n: number) => string;
  headers: Record<string, string>;
  seedSeconds: number;
  rssMiB: number;
}

const children: ChildProcess[] = [];
// Never leave a server behind, whatever fails below.
process.on('exit', () => children.forEach((child) => child.kill('SIGKILL')));
// A stopped bench (Ctrl-C, a timeout) runs the exit handlers too: servers and the cluster go with it.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

const storePath = (sequence: number) => `/bench/stores/${benchStoreId((sequence % STORES) + 1)}`;

async function heraldToken(url: string): Promise<string> {
  const response = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from('bench-client:bench-secret-0123456789').toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials&scope=manage_stores:bench',
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

async function startTarget(
  name: string,
  mode: 'bare' | 'mock' | 'herald',
  env: NodeJS.ProcessEnv,
  script = serveScript,
  nodeFlags: readonly string[] = [],
): Promise<Target> {
  step(`${name}: starting${env.BENCH_STORES === undefined ? '' : ` and seeding ${fmt(STORES)} stores`}`);
  const started = performance.now();
  const { url, child } = await startChild(script, [mode], env, nodeFlags);
  children.push(child);
  const seedSeconds = (performance.now() - started) / 1000;
  const token = mode === 'herald' ? await heraldToken(url) : 'unused';
  return {
    name,
    url,
    pid: child.pid ?? 0,
    byIdPath: mode === 'bare' ? () => '/x' : storePath,
    createPath: mode === 'bare' ? '/x' : '/bench/stores',
    updatePath: mode === 'bare' ? () => '/x/1' : (n) => `/bench/stores/${benchStoreId(n)}`,
    headers: { authorization: `Bearer ${token}` },
    seedSeconds,
    rssMiB: rssMiB(child.pid ?? 0),
  };
}

type Workload = 'get16' | 'get32' | 'create32' | 'update32';
const WORKLOADS: Record<Workload, string> = {
  get16: 'GET by id, 16 connections',
  get32: 'GET by id, 32 connections',
  create32: 'creates, 32 connections',
  update32: 'updates, 32 connections',
};

/** BENCH_WORKLOADS=get16,get32 measures only those (A/B runs); default all. */
const measuredWorkloads = (process.env.BENCH_WORKLOADS?.split(',') ?? Object.keys(WORKLOADS)).filter((w): w is Workload => w in WORKLOADS);

/**
 * Updates: each connection renames stores of its own, in turn (STORES_PER_CONNECTION of them), so
 * that no two requests ask for one version and a 409 is an error; each target updates other stores
 * (herald-pg and its variant share one database), and every version is the one the last answer gave.
 */
const STORES_PER_CONNECTION = 20;
const versions = new Map<number, number>();
function updateLoad(target: Target, common: Omit<PostLoadOptions, 'url' | 'body' | 'expectStatus'>): Promise<LoadResult> {
  const first = targets.indexOf(target) * common.concurrency * STORES_PER_CONNECTION + 1;
  if (first + common.concurrency * STORES_PER_CONNECTION > STORES + 1) throw new Error(`update32 needs more stores than BENCH_STORES=${STORES}`);
  const turns = new Array<number>(common.concurrency).fill(0);
  const storeOf = (worker: number) => first + worker * STORES_PER_CONNECTION + (turns[worker]! % STORES_PER_CONNECTION);
  return runPostLoad({
    ...common,
    url: target.url,
    expectStatus: 200,
    body: (sequence, worker) =>
      JSON.stringify({ version: versions.get(storeOf(worker)) ?? 1, actions: [{ action: 'setName', name: { en: `Renamed ${sequence}` } }] }),
    path: (worker) => target.updatePath(storeOf(worker)),
    answered: (worker, status, body) => {
      if (status === 200) versions.set(storeOf(worker), (JSON.parse(body) as { version: number }).version);
      turns[worker]!++;
    },
  });
}

const runTag = Date.now().toString(36);
function measure(target: Target, workload: Workload, round: number): Promise<LoadResult> {
  const common = { concurrency: workload === 'get16' ? 16 : 32, durationMs: ROUND_MS, warmupMs: WARMUP_MS, headers: target.headers };
  if (workload === 'update32') return updateLoad(target, common);
  if (workload !== 'create32') return runHttpLoad({ ...common, url: target.url, path: target.byIdPath });
  return runPostLoad({
    ...common,
    url: `${target.url}${target.createPath}`,
    expectStatus: 201,
    body: (sequence) => JSON.stringify({ key: `c-${runTag}-${target.name}-${round}-${sequence}`, name: { en: 'Created' } }),
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

// --- servers ---------------------------------------------------------------------------------
const seeded = { ...process.env, BENCH_STORES: String(STORES) };
const postgres = await startDurablePostgres();
process.on('exit', () => postgres.stop());
const targets: Target[] = [];
targets.push(await startTarget('bare', 'bare', process.env));
targets.push(await startTarget('mock', 'mock', seeded));
// Herald on PostgreSQL runs as the container image runs it (its Node flags); PGlite as `npm start`.
targets.push(await startTarget('herald-pg', 'herald', { ...seeded, DATABASE_URL: postgres.url }, serveScript, containerNodeFlags()));
const postgresPssMiB = clusterPssMiB(postgres.pid);
const variant = process.env.BENCH_VARIANT;
if (variant !== undefined) {
  const [label, params] = variant.split('?');
  // The same database, already seeded: a second gateway process differing only in its URL.
  const { BENCH_STORES: _seedNot, ...unseeded } = seeded;
  const env = { ...unseeded, DATABASE_URL: `${postgres.url}?${params ?? ''}` };
  targets.push(await startTarget(`herald-pg-${label}`, 'herald', env, process.env.BENCH_VARIANT_SERVE ?? serveScript, containerNodeFlags()));
}
// BENCH_PGLITE=0 leaves it out (A/B runs of the PostgreSQL path).
// PGlite as `npm start` runs it: a data directory of its own (removed when the bench exits).
if (process.env.BENCH_PGLITE !== '0') {
  const dataDir = mkdtempSync(join(tmpdir(), 'herald-bench-pglite-'));
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  targets.push(await startTarget('herald-pglite', 'herald', { ...seeded, DATABASE_URL: `pglite://${dataDir}` }));
}

// --- alternating rounds ----------------------------------------------------------------------
const results = new Map<string, LoadResult[]>();
const loads: number[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  loads.push(loadavg()[0] ?? 0);
  for (const workload of measuredWorkloads) {
    // Each round starts at another target, so that none always follows the same neighbour.
    const order = targets.map((_, i) => targets[(i + round - 1) % targets.length]!);
    for (const target of order) {
      step(`round ${round}/${ROUNDS}: ${target.name} ${workload}`);
      const result = await measure(target, workload, round);
      results.set(`${target.name}/${workload}`, [...(results.get(`${target.name}/${workload}`) ?? []), result]);
    }
  }
}

// Issue 2: the filtered, sorted page over the seeded stores, one client.
const page = new URLSearchParams({ where: 'name(en = "City 42") and languages contains any ("en")', sort: 'key desc', limit: '20' });
const filtered = async (target: Target, durationMs: number) =>
  runHttpLoad({ url: `${target.url}/bench/stores?${page}`, concurrency: 1, durationMs, warmupMs: 1_000, headers: target.headers });
step('filtered page');
const heraldPg = targets.find((target) => target.name === 'herald-pg')!;
const mock = targets.find((target) => target.name === 'mock')!;
const filteredHerald = await filtered(heraldPg, 8_000);
const filteredMock = await filtered(mock, 4_000);

// --- report ----------------------------------------------------------------------------------
const runs = (target: string, workload: Workload) => results.get(`${target}/${workload}`) ?? [];
const rate = (target: string, workload: Workload) => median(runs(target, workload).map((r) => r.requestsPerSecond));
const p99 = (target: string, workload: Workload) => median(runs(target, workload).map((r) => r.latencyMs.p99));
const errors = (target: string, workload: Workload) => runs(target, workload).reduce((sum, r) => sum + r.errors, 0);
const cell = (target: string, workload: Workload) =>
  `${fmt(rate(target, workload))}/s, p99 ${fmt(p99(target, workload), 1)} ms${errors(target, workload) > 0 ? `, **${errors(target, workload)} errors**` : ''}`;
/** Per-round ratios (rounds are side by side in time), then their median. */
const ratio = (a: [string, Workload], b: [string, Workload]) => {
  const each = runs(...a).map((r, i) => r.requestsPerSecond / (runs(...b)[i]?.requestsPerSecond ?? Number.NaN));
  return `${fmt(median(each) * 100)} % (rounds ${each.map((value) => fmt(value * 100)).join(', ')})`;
};

const names = targets.map((target) => target.name);
const rows = measuredWorkloads.map((w) => `| ${WORKLOADS[w]} | ${names.map((name) => cell(name, w)).join(' | ')} |`);
const variantRows = names
  .filter((name) => name.startsWith('herald-pg-'))
  .flatMap((name) => measuredWorkloads.map((w) => `| ${name} / herald-pg, ${WORKLOADS[w]} | ${ratio([name, w], ['herald-pg', w])} | A/B |`));

console.log(`## Gateway against the in-memory mock (issue 30)

${fmt(STORES)} stores in every target (seeded by SQL in Herald, by the mock's own \`unsafeAdd\`); ${ROUNDS} alternating
rounds of ${ROUND_MS / 1000} s (+1 s warm-up) per target and measure, each server in its own process, one load
generator process, keep-alive connections on loopback. Cells: median of the rounds. herald-pg: a PostgreSQL
cluster of the bench's own with fsync, synchronous_commit and full_page_writes on (durable); herald-pglite:
a fresh data directory (\`pglite://<tmp dir>\`, as \`npm start\` keeps \`./.herald/data\`). The mock runs as its own server does (strict, no authentication); Herald checks a bearer token.
Load average at the start of each round: ${loads.map((load) => fmt(load, 2)).join(', ')}.

| measure | ${names.join(' | ')} |
|---|${names.map(() => '---|').join('')}
${rows.join('\n')}
| memory after seeding (RSS) | ${targets.map((t) => `${fmt(t.rssMiB)} MiB${t.name === 'herald-pg' ? ` + PostgreSQL ${fmt(postgresPssMiB)} MiB (PSS)` : ''}`).join(' | ')} |
| start + seeding | ${targets.map((t) => `${fmt(t.seedSeconds, 1)} s`).join(' | ')} |

| ratio (same rounds) | result | target |
|---|---|---|
| herald-pg / mock, GET by id at 16 | ${ratio(['herald-pg', 'get16'], ['mock', 'get16'])} | ≥ 60 % |
| herald-pg / mock, GET by id at 32 | ${ratio(['herald-pg', 'get32'], ['mock', 'get32'])} | ≥ 60 % |
| herald-pg at 32 / at 16 | ${ratio(['herald-pg', 'get32'], ['herald-pg', 'get16'])} | ≥ 100 % |
| herald-pg / mock, creates at 32 (durable) | ${ratio(['herald-pg', 'create32'], ['mock', 'create32'])} | ≥ 50 % |
| herald-pg / mock, updates at 32 (durable) | ${ratio(['herald-pg', 'update32'], ['mock', 'update32'])} | ≥ 50 % |
| herald-pglite / herald-pg, GET by id at 32 | ${ratio(['herald-pglite', 'get32'], ['herald-pg', 'get32'])} | ≥ 50 % |
${variantRows.join('\n')}

## Gateway reads (issue 2)

Herald on PostgreSQL (the durable cluster above), ${fmt(STORES)} stores.

| Measurement | Result | Target |
|---|---|---|
| Herald / bare route, GET by id at 32 | ${ratio(['herald-pg', 'get32'], ['bare', 'get32'])} | ≥ 25 % |
| Filtered, sorted page (\`where=name(en = "City 42") and languages contains any ("en")\`, \`sort=key desc\`, 20 of ${fmt(STORES / 1000)} matches, with total), one client | p50 ${fmt(filteredHerald.latencyMs.p50, 2)} ms, p99 ${fmt(filteredHerald.latencyMs.p99, 2)} ms, errors ${filteredHerald.errors} (the mock: p50 ${fmt(filteredMock.latencyMs.p50, 1)} ms) | p99 < 20 ms |
`);
// SIGTERM first: a server run with `--cpu-prof` writes its profile as it exits (SIGKILL would lose it).
await Promise.all(children.map(stopChild));
process.exit(0);
