// How fixture-5a70bf2.sql / .json were made (not run by the tests): in a worktree of commit 5a70bf2
// (`git worktree add /tmp/herald-old 5a70bf2`, npm ci, npm run build), copied into its root and run
// there, it writes a database with that code's public API, delivery off (nothing routes the
// outbox); the fixture is a data-only dump of that database.
// usage: node make-fixture.mjs DATABASE_URL manifest.json
import { writeFileSync } from 'node:fs';
import { openDatabase, ProjectStore } from '@herald/store';
import { parseWorkerConfig } from '@herald/delivery';
import { startSqsPeer } from '@herald/testkit';
import { buildGateway } from '../packages/gateway/dist/app.js';
import { defaultConfig } from '../packages/gateway/dist/config/config.js';

const [url, out] = process.argv.slice(2);
const DAY = 86_400_000;
let now = Date.now() - 120 * DAY;
const clock = { now: () => new Date(now) };
const sqs = await startSqsPeer({ region: 'us-east-1' });
const db = await openDatabase(url);
const P = 'shop';
const base = defaultConfig();
const config = Object.freeze({
  ...base,
  projects: [P],
  delivery: parseWorkerConfig({ HERALD_SQS_ENDPOINT: sqs.endpoint, HERALD_ALLOW_INSECURE_DESTINATIONS: 'true' }),
  oauth: { ...base.oauth, bootstrapClient: { id: 'boot', secret: 'boot-secret-123456' }, tokenRateLimitPerMinute: 0 },
});
await new ProjectStore(db, clock).ensure(P);
const gw = await buildGateway(config, { db, logger: false, clock });
const app = gw.app;
async function token() {
  const r = await app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { authorization: 'Basic ' + Buffer.from('boot:boot-secret-123456').toString('base64'), 'content-type': 'application/x-www-form-urlencoded' },
    payload: `grant_type=client_credentials&scope=manage_project:${P}`,
  });
  if (r.statusCode !== 200) throw new Error(r.body);
  return r.json().access_token;
}
async function call(method, path, payload, expect) {
  const r = await app.inject({ method, url: path, headers: { authorization: `Bearer ${await token()}` }, ...(payload === undefined ? {} : { payload }) });
  if (expect !== undefined && r.statusCode !== expect) throw new Error(`${method} ${path}: ${r.statusCode} ${r.body}`);
  return r.json();
}
const m = { project: P };
// Carts at T-120 d, T-100 d, T-95 d (modified at T-10 d), T-10 d.
m.cartOld120 = (await call('POST', `/${P}/carts`, { currency: 'EUR' }, 201)).id;
now += 20 * DAY;
m.cartOld100 = (await call('POST', `/${P}/carts`, { currency: 'EUR', key: 'old-100' }, 201)).id;
now += 5 * DAY;
const touched = await call('POST', `/${P}/carts`, { currency: 'EUR' }, 201);
m.cartTouched = touched.id;
now += 85 * DAY;
await call('POST', `/${P}/carts/${touched.id}`, { version: 1, actions: [{ action: 'setCountry', country: 'DE' }] }, 200);
m.cartRecent = (await call('POST', `/${P}/carts`, { currency: 'EUR' }, 201)).id;
now = Date.now() - 60_000;
// An API client through the API.
const client = await call('POST', `/${P}/api-clients`, { name: 'legacy-client', scope: `manage_project:${P}` }, 201);
m.apiClient = { id: client.id, secret: client.secret };
// Legacy subscriptions.
const dest = (q) => ({
  type: 'SQS',
  queueUrl: sqs.createQueue(q),
  region: 'us-east-1',
  accessKey: 'AKIAHERALDSUBSCRIPT1',
  accessSecret: 'sub-secret-Zq8pL2vX9mW4rT7yK1nB',
});
m.subStoreCreated = (
  await call(
    'POST',
    `/${P}/subscriptions`,
    { key: 'legacy-store-created', destination: dest('legacy-store-created'), messages: [{ resourceTypeId: 'store', types: ['StoreCreated'] }] },
    201,
  )
).id;
m.subStoreChanges = (
  await call(
    'POST',
    `/${P}/subscriptions`,
    { key: 'legacy-store-changes', destination: dest('legacy-store-changes'), changes: [{ resourceTypeId: 'store' }] },
    201,
  )
).id;
m.subToWiden = (
  await call(
    'POST',
    `/${P}/subscriptions`,
    { key: 'legacy-widen', destination: dest('legacy-widen'), messages: [{ resourceTypeId: 'store', types: ['StoreCreated'] }] },
    201,
  )
).id;
m.subCartChanges = (
  await call(
    'POST',
    `/${P}/subscriptions`,
    { key: 'legacy-cart-changes', destination: dest('legacy-cart-changes'), changes: [{ resourceTypeId: 'cart' }] },
    201,
  )
).id;
// Events left unrouted.
const s1 = await call('POST', `/${P}/stores`, { key: 'berlin', name: { en: 'Berlin' } }, 201);
m.storeBerlin = s1.id;
await call('POST', `/${P}/stores/${s1.id}`, { version: 1, actions: [{ action: 'setName', name: { en: 'Berlin 2' } }] }, 200);
m.storeParis = (await call('POST', `/${P}/stores`, { key: 'paris', name: { en: 'Paris' } }, 201)).id;
const outbox = await db.query('SELECT count(*)::int AS n FROM outbox');
m.outboxRows = outbox.rows[0].n;
writeFileSync(out, JSON.stringify(m, null, 2));
console.log(JSON.stringify(m, null, 2));
await app.close();
await db.close();
await sqs.stop();
