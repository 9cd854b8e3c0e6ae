/**
 * Issue 30's PGlite memory target (RSS after 100,000 stores ≤ 400 MiB), measured as a user gets it:
 * the gateway started as `herald serve` starts it (a new PGlite data directory, in-process
 * delivery), BENCH_STORES stores created through `POST /{projectKey}/stores` (32 connections),
 * then BENCH_READ_SECONDS of reads by id (32 connections). The server reports where its memory is
 * (bench/_memory.ts memorySplit: WebAssembly, files, the rest; V8's heap and external) at start,
 * after the creates and after the reads.
 *
 *   npx tsx bench/pglite-memory.ts
 *
 * BENCH_VARIANTS='[{"label":"before","serve":"/tmp/wt-x/packages/gateway/bench/pglite-memory.ts"},{"label":"after"}]'
 * runs several servers (other code, `env`, node flags `nodeFlags`, or `npmStart`: the built
 * gateway of a checkout run as `npm start` runs it, without tsx) in alternating rounds
 * (BENCH_ROUNDS, default 1): each round starts every variant on a new directory in turn.
 * BENCH_MODE=speed runs the variants at once and compares their rates in alternating bursts
 * (driveSpeed). `tsx bench/pglite-memory.ts serve <dir>` is the server itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createInterface, type Interface } from 'node:readline';
import { runHttpLoad } from '@herald/testkit';
import { memorySplit, type MemorySplit } from './_memory.js';
import { benchStoreCount, benchStoreId, seedHeraldStores } from './_stores.js';

const CLIENT = 'bench-client:bench-secret-0123456789';

// --- the server ---------------------------------------------------------------------------------

/** Herald as `herald serve` runs it on `dataDir`; answers each line on stdin with its process.memoryUsage(). */
async function serve(dataDir: string): Promise<void> {
  const { loadConfig, startHerald } = await import('../src/index.js');
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: `pglite://${dataDir}`,
    LOG_LEVEL: 'silent',
    HERALD_PROJECTS: 'bench',
    HERALD_BOOTSTRAP_CLIENT: CLIENT,
    HERALD_TOKEN_RATE_LIMIT: '0',
  });
  const herald = await startHerald(config);
  process.stdout.write(`${herald.url}\n`);
  // `seed N`: stores 1..N by SQL (as http-reads.ts seeds); any other line: the memory split.
  createInterface({ input: process.stdin }).on('line', async (line) => {
    const seed = line.match(/^seed (\d+)$/);
    if (seed !== null) await seedHeraldStores(herald.db, Number(seed[1]));
    process.stdout.write(`${JSON.stringify(process.memoryUsage())}\n`);
  });
  process.stdin.once('end', () => void herald.stop().then(() => process.exit(0)));
}

// --- the driver ---------------------------------------------------------------------------------

interface Variant {
  label: string;
  serve?: string;
  /** The server's command instead of `node --import tsx <serve>` (e.g. plain node on built code); `serve <dir>` is appended. */
  command?: string[];
  env?: Record<string, string>;
  nodeFlags?: string;
  /**
   * The root of a checkout whose gateway is built (`npm run build`): runs exactly what its `npm
   * start` runs, `[NAME=value …] node [flags …] packages/gateway/dist/cli/main.js serve`, without
   * tsx (whose loader thread and source maps hold ~100 MiB). Its stores can only be created through the API (BENCH_API_CREATES
   * = BENCH_STORES); V8's figures come from bench/_heap-probe.mjs, preloaded with `--import`.
   */
  npmStart?: string;
}

interface Server {
  url: string;
  child: ChildProcess;
  measure(): Promise<MemorySplit>;
  seed(count: number): Promise<MemorySplit>;
  stop(): Promise<void>;
}

const exited = (child: ChildProcess) => new Promise((resolve) => child.once('exit', resolve));

const step = (what: string) => process.stderr.write(`[pglite-memory] ${what}\n`);

async function startServer(variant: Variant, dataDir: string): Promise<Server> {
  if (variant.npmStart !== undefined) return startBuiltServer(variant, variant.npmStart, dataDir);
  const script = variant.serve ?? import.meta.filename;
  const flags = (variant.nodeFlags ?? '').split(' ').filter((flag) => flag !== '');
  const command = variant.command ?? [process.execPath, ...flags, '--import', 'tsx', '--conditions=@herald/source', script];
  const child = spawn(command[0]!, [...command.slice(1), 'serve', dataDir], {
    env: { ...process.env, ...variant.env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  process.on('exit', () => child.kill('SIGKILL'));
  const lines: Interface = createInterface({ input: child.stdout! });
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      lines.once('line', resolve);
      child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    });
  const url = await nextLine();
  return {
    url,
    child,
    async measure() {
      child.stdin!.write('measure\n');
      return memorySplit(child.pid!, JSON.parse(await nextLine()) as NodeJS.MemoryUsage);
    },
    async seed(count) {
      child.stdin!.write(`seed ${count}\n`);
      return memorySplit(child.pid!, JSON.parse(await nextLine()) as NodeJS.MemoryUsage);
    },
    async stop() {
      child.stdin!.end();
      await exited(child);
    },
  };
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  return port;
}

const SERVE = 'node packages/gateway/dist/cli/main.js serve';

/**
 * The environment and node flags of `npm start` in the checkout at `root`: its `start` script's
 * last command is `[NAME=value …] node [flags …] packages/gateway/dist/cli/main.js serve`.
 */
function startCommand(root: string): { env: Record<string, string>; nodeFlags: string[] } {
  const script = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const words = script.split('&&').at(-1)!.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(words[0] ?? '')) {
    const [name, value] = words.shift()!.split('=') as [string, string];
    env[name] = value;
  }
  const nodeFlags = words.slice(1, -2);
  if (`${words[0]} ${words.slice(-2).join(' ')}` !== SERVE) throw new Error(`${root}: npm start is not "${SERVE}" with flags: ${script}`);
  return { env, nodeFlags };
}

/** `herald serve` from the built code under `root`, as its `npm start` runs it (environment, node flags). */
async function startBuiltServer(variant: Variant, root: string, dataDir: string): Promise<Server> {
  const port = await freePort();
  const start = startCommand(root);
  const flags = [...start.nodeFlags, ...(variant.nodeFlags ?? '').split(' ').filter((flag) => flag !== '')];
  const env = {
    ...process.env,
    ...start.env,
    ...variant.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: `pglite://${dataDir}`,
    LOG_LEVEL: 'warn',
    HERALD_PROJECTS: 'bench',
    HERALD_BOOTSTRAP_CLIENT: CLIENT,
    HERALD_TOKEN_RATE_LIMIT: '0',
  };
  // The probe (a few lines of plain JavaScript) answers V8's figures without tsx.
  const probeFile = join(dataDir, '..', `${basename(dataDir)}.heap.json`);
  const probe = ['--import', pathToFileURL(join(import.meta.dirname, '_heap-probe.mjs')).href];
  const child = spawn(process.execPath, [...flags, ...probe, join(root, 'packages/gateway/dist/cli/main.js'), 'serve'], {
    env: { ...env, BENCH_HEAP_PROBE_FILE: probeFile },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  process.on('exit', () => child.kill('SIGKILL'));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`herald serve exited with ${child.exitCode}`);
    const answered = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    child,
    measure: async () => memorySplit(child.pid!, await askHeapProbe(child, probeFile, variant.label)),
    seed: () => Promise.reject(new Error('a server started as `npm start` is seeded through the API only (BENCH_API_CREATES)')),
    async stop() {
      child.kill('SIGTERM');
      await exited(child);
      rmSync(probeFile, { force: true });
    },
  };
}

/** Asks bench/_heap-probe.mjs in `child` for process.memoryUsage() and logs V8's heap spaces. */
async function askHeapProbe(child: ChildProcess, file: string, label: string): Promise<NodeJS.MemoryUsage> {
  rmSync(file, { force: true });
  child.kill('SIGUSR2');
  for (let waited = 0; !existsSync(file); waited += 50) {
    if (waited > 10_000) throw new Error(`${label}: the heap probe did not answer`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await new Promise((resolve) => setTimeout(resolve, 50)); // the probe writes synchronously; let it finish
  const { usage, spaces } = JSON.parse(readFileSync(file, 'utf8')) as { usage: NodeJS.MemoryUsage; spaces: Record<string, { size: number; used: number }> };
  const inMiB = Object.entries(spaces).map(([name, space]) => `${name} ${mib(space.size / 2 ** 20)}/${mib(space.used / 2 ** 20)}`);
  step(
    `${label}: heap spaces (MiB size/used) ${inMiB.join(', ')}; external ${mib(usage.external / 2 ** 20)}, arrayBuffers ${mib(usage.arrayBuffers / 2 ** 20)}`,
  );
  return usage;
}

async function token(url: string): Promise<string> {
  const response = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(CLIENT).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&scope=manage_stores:bench',
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Creates stores first..last through the API, `connections` at a time; answers their ids and the rate. */
async function createStores(url: string, bearer: string, [first, last]: [number, number], connections: number): Promise<{ ids: string[]; perSecond: number }> {
  const target = new URL(`${url}/bench/stores`);
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const ids: string[] = [];
  let next = first;
  const create = (n: number) =>
    new Promise<void>((resolve, reject) => {
      const body = JSON.stringify({ key: `store-${n}`, name: { en: `City ${n % 1000}` }, languages: ['en'] });
      const headers = { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
      const req = request({ host: target.hostname, port: target.port, method: 'POST', path: target.pathname, headers, agent }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          if (res.statusCode !== 201) return reject(new Error(`create ${n}: ${res.statusCode} ${text.slice(0, 300)}`));
          ids.push((JSON.parse(text) as { id: string }).id);
          resolve();
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  const started = performance.now();
  const connection = async () => {
    while (next <= last) await create(next++);
  };
  await Promise.all(Array.from({ length: connections }, connection));
  agent.destroy();
  return { ids, perSecond: ((last - first + 1) / (performance.now() - started)) * 1000 };
}

interface Run {
  label: string;
  load: number;
  atStart: MemorySplit;
  afterCreates: MemorySplit;
  afterReads: MemorySplit;
  createsPerSecond: number;
  readsPerSecond: number;
}

async function run(variant: Variant, { stores, sqlStores, readSeconds }: Plan): Promise<Run> {
  const dataDir = mkdtempSync(join(tmpdir(), 'herald-pglite-memory-'));
  try {
    const load = loadavg()[0] ?? 0;
    step(`${variant.label}: starting on ${dataDir}`);
    const server = await startServer(variant, dataDir);
    const atStart = await server.measure();
    const bearer = await token(server.url);
    if (sqlStores > 0) step(`${variant.label}: seeding ${sqlStores} stores by SQL`);
    if (sqlStores > 0) await server.seed(sqlStores);
    step(`${variant.label}: creating ${stores - sqlStores} stores through the API`);
    const created = await createStores(server.url, bearer, [sqlStores + 1, stores], 32);
    const ids = [...Array.from({ length: sqlStores }, (_, n) => benchStoreId(n + 1)), ...created.ids];
    const createsPerSecond = created.perSecond;
    const afterCreates = await server.measure();
    step(`${variant.label}: reading by id for ${readSeconds} s`);
    const reads = await runHttpLoad({
      url: server.url,
      concurrency: 32,
      durationMs: readSeconds * 1000,
      warmupMs: 1_000,
      headers: { authorization: `Bearer ${bearer}` },
      path: (sequence) => `/bench/stores/${ids[(sequence * 7919) % ids.length]}`,
    });
    if (reads.errors > 0) throw new Error(`${variant.label}: ${reads.errors} reads failed`);
    const afterReads = await server.measure();
    await server.stop();
    return { label: variant.label, load, atStart, afterCreates, afterReads, createsPerSecond, readsPerSecond: reads.requestsPerSecond };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const mib = (value: number) => value.toFixed(0);
const split = (m: MemorySplit) => {
  const heap = Number.isNaN(m.heapTotal) ? 0 : m.heapTotal;
  return `${mib(m.rss)} (wasm ${mib(m.wasmRss)}/${mib(m.wasmBytes)}, heap ${heap === 0 ? 'n/a' : mib(heap)}, files ${mib(m.fileRss)}, other ${mib(m.otherAnonRss - heap)})`;
};

interface Plan {
  stores: number;
  /** Stores 1..sqlStores are inserted by SQL first (quicker on a loaded machine), the rest created. */
  sqlStores: number;
  readSeconds: number;
}

async function drive(): Promise<void> {
  const stores = benchStoreCount();
  const plan: Plan = {
    stores,
    sqlStores: stores - Number(process.env.BENCH_API_CREATES ?? stores),
    readSeconds: Number(process.env.BENCH_READ_SECONDS ?? 10),
  };
  const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
  const variants = JSON.parse(process.env.BENCH_VARIANTS ?? '[{"label":"this checkout"}]') as Variant[];
  const runs: Run[] = [];
  for (let round = 0; round < rounds; round++) {
    // Each round starts at another variant, so that none always follows the same neighbour.
    for (let i = 0; i < variants.length; i++) {
      runs.push(await run(variants[(i + round) % variants.length]!, plan));
      step(JSON.stringify(runs.at(-1)));
    }
  }
  const how = plan.sqlStores === 0 ? 'created through the API' : `(${plan.sqlStores} inserted by SQL, then ${stores - plan.sqlStores} created through the API)`;
  console.log(`RSS in MiB (wasm resident/accessible, V8 heap total, file-backed, other native); ${stores} stores ${how}.

| variant | load | at start | after creates | after ${plan.readSeconds} s of reads | peak RSS | creates/s | reads by id/s |
|---|---|---|---|---|---|---|---|`);
  for (const r of runs) {
    console.log(
      `| ${r.label} | ${r.load.toFixed(1)} | ${split(r.atStart)} | ${split(r.afterCreates)} | ${split(r.afterReads)} | ${mib(r.afterReads.peakRss)} | ${r.createsPerSecond.toFixed(0)} | ${r.readsPerSecond.toFixed(0)} |`,
    );
  }
  process.exit(0);
}

// --- speed: the variants side by side ----------------------------------------------------------

/**
 * BENCH_MODE=speed: a flag or setting that saves memory may cost speed, and on this shared host
 * runs minutes apart are not comparable. So every variant runs at once, each on its own new
 * directory with BENCH_STORES stores created through the API, and BENCH_ROUNDS rounds alternate
 * short bursts between them: BENCH_BURST_CREATES creates, then BENCH_READ_SECONDS of reads by id,
 * at 32 connections. Reported: each variant's median rate and its memory at the end.
 */
async function driveSpeed(): Promise<void> {
  const variants = JSON.parse(process.env.BENCH_VARIANTS ?? '[{"label":"this checkout"}]') as Variant[];
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  const burst = Number(process.env.BENCH_BURST_CREATES ?? 2_000);
  const readSeconds = Number(process.env.BENCH_READ_SECONDS ?? 5);
  const dirs = variants.map(() => mkdtempSync(join(tmpdir(), 'herald-pglite-speed-')));
  const servers = await Promise.all(variants.map((variant, i) => startServer(variant, dirs[i]!)));
  const bearers = await Promise.all(servers.map((server) => token(server.url)));
  const ids: string[][] = [];
  for (const [i, server] of servers.entries()) {
    step(`${variants[i]!.label}: creating ${benchStoreCount()} stores`);
    ids.push((await createStores(server.url, bearers[i]!, [1, benchStoreCount()], 32)).ids);
  }
  const creates: number[][] = variants.map(() => []);
  const reads: number[][] = variants.map(() => []);
  let next = benchStoreCount() + 1;
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < servers.length; k++) {
      const i = (k + round) % servers.length;
      const created = await createStores(servers[i]!.url, bearers[i]!, [next, next + burst - 1], 32);
      next += burst;
      ids[i]!.push(...created.ids);
      const pool = ids[i]!;
      const read = await runHttpLoad({
        url: servers[i]!.url,
        concurrency: 32,
        durationMs: readSeconds * 1000,
        warmupMs: 500,
        headers: { authorization: `Bearer ${bearers[i]}` },
        path: (sequence) => `/bench/stores/${pool[(sequence * 7919) % pool.length]}`,
      });
      if (read.errors > 0) throw new Error(`${variants[i]!.label}: ${read.errors} reads failed`);
      creates[i]!.push(created.perSecond);
      reads[i]!.push(read.requestsPerSecond);
      step(
        `round ${round + 1} ${variants[i]!.label}: ${created.perSecond.toFixed(0)} creates/s, ${read.requestsPerSecond.toFixed(0)} reads/s, load ${loadavg()[0]!.toFixed(1)}`,
      );
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(`Rates side by side: ${rounds} alternating rounds of ${burst} creates then ${readSeconds} s of reads by id, 32 connections.

| variant | creates/s (median; each round) | reads by id/s (median; each round) | RSS at the end | peak RSS |
|---|---|---|---|---|`);
  for (const [i, server] of servers.entries()) {
    const memory = await server.measure();
    const each = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ');
    console.log(
      `| ${variants[i]!.label} | ${median(creates[i]!).toFixed(0)} (${each(creates[i]!)}) | ${median(reads[i]!).toFixed(0)} (${each(reads[i]!)}) | ${mib(memory.rss)} | ${mib(memory.peakRss)} |`,
    );
  }
  await Promise.all(servers.map((server) => server.stop()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

if (process.argv[2] === 'serve') await serve(process.argv[3]!);
else if (process.env.BENCH_MODE === 'speed') await driveSpeed();
else await drive();
