/**
 * Issue 29 benchmark: what an HTTP API Extension on loopback adds to a cart create. One gateway
 * (PostgreSQL from DATABASE_URL, else embedded PGlite) in this process, driven through `inject`;
 * the Extension is a plain Node HTTP server on 127.0.0.1 answering one update action. Creates with
 * and without the Extension alternate in rounds, so both see the same machine load, and both
 * figures come from the same run.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { openDatabase, ProjectStore, runMigrations } from '@herald/store';
import { buildGateway } from '../src/app.js';
import { defaultConfig } from '../src/config/config.js';

const PROJECT = 'bench';
const ROUNDS = 20;
const PER_ROUND = 50;
const CLIENT = { id: 'bench-client', secret: 'bench-secret-0123456789' };
const step = (what: string) => process.stderr.write(`[extension-overhead] ${what}\n`);

const extension = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    const body = JSON.stringify({ actions: [{ action: 'setCustomerEmail', email: 'bench@example.com' }] });
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    response.end(body);
  });
});
await new Promise<void>((resolve) => extension.listen(0, '127.0.0.1', resolve));
const extensionUrl = `http://127.0.0.1:${(extension.address() as AddressInfo).port}/cart`;

const databaseUrl = process.env.DATABASE_URL?.startsWith('postgres') === true ? process.env.DATABASE_URL : 'pglite://memory';
const db = await openDatabase(databaseUrl);
await runMigrations(db);
await new ProjectStore(db).ensure(PROJECT);
const base = defaultConfig();
const config = Object.freeze({ ...base, projects: [PROJECT], oauth: { ...base.oauth, bootstrapClient: CLIENT, tokenRateLimitPerMinute: 0 } });
const { app } = await buildGateway(config, { db, logger: false });

const tokenAnswer = await app.inject({
  method: 'POST',
  url: '/oauth/token',
  headers: { authorization: `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
  payload: `grant_type=client_credentials&scope=manage_orders:${PROJECT} manage_extensions:${PROJECT}`,
});
const headers = { authorization: `Bearer ${(tokenAnswer.json() as { access_token: string }).access_token}` };

/** Creates `count` carts (one at a time, as a storefront's request would), returning each latency in ms. */
async function createCarts(count: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const started = performance.now();
    const answer = await app.inject({ method: 'POST', url: `/${PROJECT}/carts`, headers, payload: { currency: 'EUR', country: 'DE' } });
    latencies.push(performance.now() - started);
    if (answer.statusCode !== 201) throw new Error(`cart create: ${answer.statusCode} ${answer.body}`);
  }
  return latencies;
}

async function setExtension(on: boolean, current: { id: string; version: number } | undefined) {
  if (!on && current !== undefined) {
    await app.inject({ method: 'DELETE', url: `/${PROJECT}/extensions/${current.id}?version=${current.version}`, headers });
    return undefined;
  }
  if (on && current === undefined) {
    const created = await app.inject({
      method: 'POST',
      url: `/${PROJECT}/extensions`,
      headers,
      payload: { destination: { type: 'HTTP', url: extensionUrl }, triggers: [{ resourceTypeId: 'cart', actions: ['Create'] }] },
    });
    return created.json() as { id: string; version: number };
  }
  return current;
}

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

step('warm-up');
await createCarts(100);
const without: number[] = [];
const withExtension: number[] = [];
let current: { id: string; version: number } | undefined;
for (let round = 0; round < ROUNDS; round += 1) {
  step(`round ${round + 1}/${ROUNDS}`);
  current = await setExtension(false, current);
  without.push(...(await createCarts(PER_ROUND)));
  current = await setExtension(true, current);
  withExtension.push(...(await createCarts(PER_ROUND)));
}
const load = loadavg().map((value) => value.toFixed(2));
await app.close();
await db.close();
extension.close();

const ms = (value: number) => value.toFixed(2);
const rows = [
  ['without an Extension', without],
  ['with an HTTP Extension (1 update action)', withExtension],
] as const;
const lines = [
  '## API extension overhead on cart creation (issue 29)',
  '',
  `One cart create at a time through \`inject\` on ${databaseUrl.startsWith('postgres') ? 'PostgreSQL' : 'embedded PGlite'}; the Extension is an HTTP server on loopback in the same process answering \`setCustomerEmail\`. ${ROUNDS} alternating rounds of ${PER_ROUND} creates each; load average at the end ${load.join(' / ')}.`,
  '',
  '| Cart create | p50 (ms) | p99 (ms) |',
  '|---|---:|---:|',
  ...rows.map(([label, values]) => `| ${label} | ${ms(percentile(values, 50))} | ${ms(percentile(values, 99))} |`),
  `| overhead | ${ms(percentile(withExtension, 50) - percentile(without, 50))} | ${ms(percentile(withExtension, 99) - percentile(without, 99))} |`,
  '',
];
console.log(lines.join('\n'));
