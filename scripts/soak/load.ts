/**
 * The soak run's writer, in its own process: creates and updates `store` resources through the
 * gateway's HTTP API (a real OAuth client-credentials token) at RATE writes/s for DURATION_MS,
 * open loop (paced; at most MAX_IN_FLIGHT requests outstanding, beyond that it falls behind and
 * says so). Every committed write is appended to OUT as `<id> <version> <Date.now() at response>`
 * (followed by ` resolved` for a write whose answer was lost, known committed by re-reading):
 * each one produces a change notification (ResourceCreated for version 1, ResourceUpdated after)
 * and one message (StoreCreated / StoreNameSet) with sequenceNumber = version.
 *
 * Writes whose outcome is unknown (connection error, 5xx, timeout) are resolved afterwards: an
 * update by re-reading the store's version before its next update (the versions in between did
 * commit), a create by looking its key up at the end.
 *
 * Configuration: one JSON argument (see LoadConfig). Progress and the summary go to stdout as JSON.
 */
import { writeSync, openSync, closeSync } from 'node:fs';
import { KeepAliveClient, type Reply } from './http-client.js';

interface LoadConfig {
  url: string;
  project: string;
  clientId: string;
  clientSecret: string;
  rate: number;
  durationMs: number;
  out: string;
  maxInFlight: number;
  /** Share of writes that create a new store (the rest update an existing one). */
  createShare: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as LoadConfig;
const target = new URL(config.url);
// Keep-alive connections (at most one per request in flight), 30 s per request.
const client = new KeepAliveClient(target.hostname, Number(target.port), 30_000);
const out = openSync(config.out, 'a');

function call(method: string, path: string, body: unknown, headers: Record<string, string>): Promise<Reply> {
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  return client.request(method, path, headers, payload);
}

async function fetchToken(): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const reply = await call('POST', '/oauth/token', `grant_type=client_credentials&scope=manage_project:${config.project}`, {
      authorization: `Basic ${Buffer.from(`${config.clientId}:${config.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    });
    if (reply.status === 200) return (JSON.parse(reply.body) as { access_token: string }).access_token;
    if (attempt > 50) throw new Error(`token: ${reply.status} ${reply.body}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const token = await fetchToken();
const json = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

interface Store {
  id: string;
  version: number;
  busy: boolean;
  /** The last update's outcome is unknown: read the version before the next update. */
  unsure: boolean;
}

const stores: Store[] = [];
const ambiguousCreates: string[] = [];
/** `behind`: the most the writer lagged its schedule (ms); the gateway could not keep up. */
const counts = { sent: 0, committed: 0, conflicts: 0, ambiguous: 0, rejected: 0, resolved: 0, behind: 0 };
let inFlight = 0;
let sequence = 0;
/** Resolves the writer's wait for a free slot (one waiter: the schedule loop). */
let slotFreed: (() => void) | undefined;

/** `resolved`: the write's answer was lost (no 2xx seen); re-reading showed it committed. */
function record(id: string, version: number, at: number, resolved = false): void {
  writeSync(out, `${id} ${version} ${at}${resolved ? ' resolved' : ''}\n`);
  counts.committed++;
}

async function create(): Promise<void> {
  const key = `soak-${process.pid}-${sequence++}`;
  const reply = await call('POST', `/${config.project}/stores`, { key, name: { en: key }, languages: ['en'] }, json);
  if (reply.status === 201 || reply.status === 200) {
    const store = JSON.parse(reply.body) as { id: string; version: number };
    record(store.id, store.version, Date.now());
    stores.push({ id: store.id, version: store.version, busy: false, unsure: false });
  } else if (reply.status === 0 || reply.status >= 500) {
    counts.ambiguous++;
    ambiguousCreates.push(key);
  } else {
    counts.rejected++;
  }
}

/** Reads the store's current version; versions above the known one committed (ambiguous writes). */
async function resync(store: Store): Promise<boolean> {
  const reply = await call('GET', `/${config.project}/stores/${store.id}`, undefined, { authorization: json.authorization });
  if (reply.status !== 200) return false;
  const current = (JSON.parse(reply.body) as { version: number }).version;
  for (let version = store.version + 1; version <= current; version++) {
    record(store.id, version, Date.now(), true);
    counts.resolved++;
  }
  store.version = current;
  store.unsure = false;
  return true;
}

async function update(store: Store): Promise<void> {
  store.busy = true;
  try {
    if (store.unsure && !(await resync(store))) return;
    const reply = await call(
      'POST',
      `/${config.project}/stores/${store.id}`,
      { version: store.version, actions: [{ action: 'setName', name: { en: `v${store.version + 1}-${Date.now()}` } }] },
      json,
    );
    if (reply.status === 200) {
      const updated = JSON.parse(reply.body) as { version: number };
      store.version = updated.version;
      record(store.id, updated.version, Date.now());
    } else if (reply.status === 409) {
      counts.conflicts++;
      store.unsure = true;
    } else if (reply.status === 0 || reply.status >= 500) {
      counts.ambiguous++;
      store.unsure = true;
    } else {
      counts.rejected++;
    }
  } finally {
    store.busy = false;
  }
}

function pickIdle(): Store | undefined {
  for (let attempt = 0; attempt < 8; attempt++) {
    const store = stores[Math.floor(Math.random() * stores.length)];
    if (store !== undefined && !store.busy) return store;
  }
  return undefined;
}

function one(): Promise<void> {
  const store = stores.length < 200 || Math.random() < config.createShare ? undefined : pickIdle();
  return store === undefined ? create() : update(store);
}

const start = performance.now();
const startCpu = process.cpuUsage();
const total = Math.round((config.rate * config.durationMs) / 1000);
const pending = new Set<Promise<void>>();
const progress = setInterval(() => {
  process.stdout.write(`${JSON.stringify({ type: 'progress', ...counts, inFlight, stores: stores.length })}\n`);
}, 5_000);

const deadline = start + config.durationMs;
for (let i = 0; i < total; i++) {
  const due = start + (i * 1000) / config.rate;
  const wait = due - performance.now();
  if (wait > 2) await new Promise((resolve) => setTimeout(resolve, wait));
  else if (wait < -1000) counts.behind = Math.max(counts.behind, Math.round(-wait));
  // One waiter resolved by the next completion (a Promise.race over every pending write per
  // iteration would attach a reaction to each of them every time: quadratic once behind).
  while (inFlight >= config.maxInFlight) await new Promise<void>((resolve) => (slotFreed = resolve));
  // Bounded in time: what the gateway could not take by the end is not sent (counted in `behind`).
  if (performance.now() >= deadline) break;
  inFlight++;
  counts.sent++;
  const work = one().finally(() => {
    inFlight--;
    pending.delete(work);
    const freed = slotFreed;
    slotFreed = undefined;
    freed?.();
  });
  pending.add(work);
}
await Promise.all(pending);
const elapsedMs = performance.now() - start;
const cpuUsed = process.cpuUsage(startCpu);
clearInterval(progress);

// Resolve what stayed ambiguous: unsure stores and creates whose answer never came.
for (const store of stores) if (store.unsure) await resync(store);
for (const key of ambiguousCreates) {
  const reply = await call('GET', `/${config.project}/stores/key=${key}`, undefined, { authorization: json.authorization });
  if (reply.status !== 200) continue;
  const store = JSON.parse(reply.body) as { id: string; version: number };
  for (let version = 1; version <= store.version; version++) record(store.id, version, Date.now(), true);
  counts.resolved++;
}
closeSync(out);
process.stdout.write(
  `${JSON.stringify({ type: 'done', ...counts, achievedRate: Math.round((counts.sent * 1000) / elapsedMs), elapsedMs: Math.round(elapsedMs), cpuMs: Math.round((cpuUsed.user + cpuUsed.system) / 1000) })}\n`,
);
client.close();
