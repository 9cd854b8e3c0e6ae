/**
 * `npm run soak [-- flags]`: Herald end to end under sustained load, optionally with one fault
 * injected, all on loopback, bounded in time; prints a markdown section.
 *
 *   gateway (own process, HERALD_DELIVERY=off, PostgreSQL)
 *     ← load process: store creates/updates through the HTTP API with a real token (load.ts)
 *     → outbox → two `herald-delivery` worker processes
 *     → SQS peer (fauxqs behind switchable TCP proxies, own process: peer.ts, proxy.ts)
 *     → consumer process: @herald/consumer + RedisDedupStore + SqsPoller (consumer.ts); two of them
 *       on the same queue in `two-consumers`
 *
 * Flags (defaults in brackets):
 *   --duration S        seconds of load [600]
 *   --rate N            writes per second [500]; each write yields one change + one message, so the
 *                       default is 1,000 events/s (500 with --messages off)
 *   --scenario NAME     none | kill-worker | pg-restart | destination-down | redis-restart | kill-consumer
 *                       | pg-kill | blackhole | kill-gateway | two-consumers | two-consumers-kill [none]
 *   --fault-at S        seconds into the load when the fault is injected [duration / 3]
 *   --down S            how long the fault lasts: destination-down (refused connections) [120],
 *                       blackhole (a second subscription's destination never answers) [60],
 *                       pg-kill (PostgreSQL stopped -m immediate, then started) [5]
 *   --hung cut|keep     blackhole: when it ends, the connections it left hanging are cut (reset) or
 *                       kept open and silent, as a connection whose packets were dropped stays [cut]
 *   --messages on|off   subscribe to the store's messages as well as its changes [on]
 *   --max-wait-ms N     consumer ordering maxWaitMs [60000] (must exceed the worker lease, 30 s)
 *   --consumer-in-flight N  SqsPoller maxInFlight [100, the library's default]
 *   --ordering on|off   the consumer's per-resource ordering [on]
 *   --drain S           after the load, how long to wait for the last deliveries [180]
 *   --report FILE       also append the markdown section to FILE
 *   --keep              keep the run directory (logs, raw records) even on success
 *   --cpu-prof ROLES    profile these Node processes (comma-separated: gateway,load,worker-1,worker-2,
 *                       peer,consumer) with `node --cpu-prof`; profiles go to <run dir>/prof (kept)
 *   --pg-stats          load pg_stat_statements and report the statements run during load + drain
 * HERALD_DELIVERY_* variables in the environment are passed to the workers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { cpuBetween, CpuMeter, othersBetween, type CpuSnapshot, type Labeler } from './cpu.js';
import { LaneOrder } from './order.js';
import type { BlackholeStats } from './proxy.js';
import { blackholeRows, queueDepth, subscriptionBacklog, workerAttempts, type BlackholeOutcome } from './measures.js';
import { freePort, startPostgres, startRedisServer } from './services.js';

const ROOT = resolve(import.meta.dirname, '../..');
const HERE = import.meta.dirname;
const SCENARIOS = [
  'none',
  'kill-worker',
  'pg-restart',
  'destination-down',
  'redis-restart',
  'kill-consumer',
  'pg-kill',
  'blackhole',
  'kill-gateway',
  'two-consumers',
  'two-consumers-kill',
] as const;
type Scenario = (typeof SCENARIOS)[number];

// ---------------------------------------------------------------- flags
function flags(argv: string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) throw new Error(`unexpected argument ${arg}`);
    const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
    if (inline !== undefined) map.set(name, inline);
    else if (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('--')) map.set(name, argv[++i]!);
    else map.set(name, 'true');
  }
  return map;
}
const args = flags(process.argv.slice(2));
const num = (name: string, fallback: number): number => {
  const raw = args.get(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a non-negative number`);
  return value;
};
const DURATION_S = num('duration', 600);
const RATE = num('rate', 500);
const SCENARIO = (args.get('scenario') ?? 'none') as Scenario;
if (!SCENARIOS.includes(SCENARIO)) throw new Error(`--scenario must be one of ${SCENARIOS.join(', ')}`);
const FAULT_AT_S = num('fault-at', Math.round(DURATION_S / 3));
const DOWN_S = num('down', SCENARIO === 'blackhole' ? 60 : SCENARIO === 'pg-kill' ? 5 : 120);
const KEEP_HUNG = args.get('hung') === 'keep';
const MESSAGES = (args.get('messages') ?? 'on') !== 'off';
const MAX_WAIT_MS = num('max-wait-ms', 60_000);
const DRAIN_S = num('drain', 180);
const CONSUMER_IN_FLIGHT = num('consumer-in-flight', 100);
const ORDERING = (args.get('ordering') ?? 'on') !== 'off';
const REPORT = args.get('report');
const CPU_PROF = new Set((args.get('cpu-prof') ?? '').split(',').filter((role) => role !== '' && role !== 'true'));
const PG_STATS = args.has('pg-stats');
const KEEP = args.has('keep') || CPU_PROF.size > 0;
const PROJECT = 'soak';
const CLIENT = { id: 'soak-client', secret: 'soak-secret-0123456789' };
const SAMPLE_MS = 5_000;
/** `blackhole`: the key of the second subscription, whose destination stops answering. */
const BLACKHOLE_KEY = 'soak-blackhole';

const runDir = mkdtempSync(join(tmpdir(), 'herald-soak-'));
const log = (line: string): void => {
  process.stderr.write(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
};

// ---------------------------------------------------------------- children
interface Child {
  name: string;
  child: ChildProcess;
  exited: Promise<number | string>;
}
const children = new Set<Child>();

function spawnTs(name: string, script: string, scriptArgs: string[], env: Record<string, string>, options: { ipc?: boolean; stdout?: boolean } = {}): Child {
  const logFd = openSync(join(runDir, `${name}.log`), 'a');
  const profile = CPU_PROF.has(name) ? ['--cpu-prof', `--cpu-prof-dir=${join(runDir, 'prof', name)}`] : [];
  const child = spawn(process.execPath, [...profile, '--conditions=@herald/source', '--import', 'tsx', script, ...scriptArgs], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', METADATA_SERVER_DETECTION: 'none', ...env },
    stdio: ['ignore', options.stdout === true ? 'pipe' : logFd, logFd, ...(options.ipc === true ? (['ipc'] as const) : [])],
  });
  closeSync(logFd);
  const entry: Child = {
    name,
    child,
    exited: new Promise((done) => child.once('exit', (code, signal) => done(code ?? signal ?? -1))),
  };
  children.add(entry);
  void entry.exited.then(() => children.delete(entry));
  return entry;
}

/** Children this runner stopped or killed on purpose; any other exit is a crash (reported). */
const intended = new Set<Child>();
let finishing = false;
const crashes: { role: string; at: number; code: number | string; tail: string }[] = [];

async function stopChild(entry: Child | undefined, graceMs = 10_000): Promise<void> {
  if (entry !== undefined) intended.add(entry);
  if (entry === undefined || entry.child.exitCode !== null || entry.child.signalCode !== null) return;
  entry.child.kill('SIGTERM');
  const timer = setTimeout(() => entry.child.kill('SIGKILL'), graceMs);
  await entry.exited;
  clearTimeout(timer);
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}
const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));
const httpOk = async (url: string): Promise<boolean> => (await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok;

function rssKb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Reads the complete lines appended to a file since the last call. */
class Tail {
  private offset = 0;
  private rest = '';
  constructor(private readonly path: string) {}
  lines(): string[] {
    if (!existsSync(this.path)) return [];
    const fd = openSync(this.path, 'r');
    const chunks: Buffer[] = [];
    const buffer = Buffer.alloc(1 << 20);
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, this.offset);
      if (read <= 0) break;
      chunks.push(Buffer.from(buffer.subarray(0, read)));
      this.offset += read;
    }
    closeSync(fd);
    const text = this.rest + Buffer.concat(chunks).toString('utf8');
    const parts = text.split('\n');
    this.rest = parts.pop() ?? '';
    return parts.filter((line) => line !== '');
  }
}

// ---------------------------------------------------------------- records
const keyPrefix = `herald:${PROJECT}:store:`;
/** dedup key → commit time (ms) of the write that produced it. */
const expected = new Map<string, number>();
/** The expected keys of writes whose answer the load client did not get (known committed by re-reading). */
const resolvedKeys = new Set<string>();
/** Per-resource order of first executions, across consumer instances (order.ts). */
const laneOrder = new LaneOrder();
/** consumer instance → first executions it ran. */
const handledBy = new Map<string, number>();
/** dedup key → handler executions: count, first execution time, payload time. */
const handled = new Map<string, { count: number; at: number; payloadAt: number }>();
/** dedup key → SQS MessageIds received (a repeated id is a redelivery; two ids are two sends). */
const received = new Map<string, string[]>();
let receipts = 0;
let unexpectedHandled = 0;
const loadOut = new Tail(join(runDir, 'writes.txt'));
const handledOut = new Tail(join(runDir, 'handled.txt'));
const receivedOut = new Tail(join(runDir, 'received.txt'));

function ingest(): void {
  for (const line of loadOut.lines()) {
    const [id, versionText, atText, resolved] = line.split(' ');
    const version = Number(versionText);
    const at = Number(atText);
    const keys = [`${keyPrefix}${id}:c:${version === 1 ? 'ResourceCreated' : 'ResourceUpdated'}:${version}`];
    if (MESSAGES) keys.push(`${keyPrefix}${id}:m:${version}`);
    for (const key of keys) {
      expected.set(key, at);
      if (resolved === 'resolved') resolvedKeys.add(key);
    }
  }
  for (const line of handledOut.lines()) {
    const [key, atText, payloadText, instance = 'consumer', released = '-'] = line.split(' ') as [string, string, string, string?, string?];
    const entry = handled.get(key);
    if (entry) {
      entry.count++;
      continue;
    }
    handled.set(key, { count: 1, at: Number(atText), payloadAt: Number(payloadText) });
    laneOrder.note(key, released);
    handledBy.set(instance, (handledBy.get(instance) ?? 0) + 1);
  }
  for (const line of receivedOut.lines()) {
    const [messageId, key] = line.split(' ') as [string, string];
    receipts++;
    const ids = received.get(key);
    if (ids) ids.push(messageId);
    else received.set(key, [messageId]);
  }
}

function outstanding(): number {
  let missing = 0;
  for (const key of expected.keys()) if (!handled.has(key)) missing++;
  return missing;
}

// ---------------------------------------------------------------- run
interface Sample {
  t: number;
  role: string;
  pid: number;
  rssKb: number;
}
const samples: Sample[] = [];
const consumerCounters: Record<string, number>[] = [];
const events: { at: number; what: string }[] = [];
let loadSummary: Record<string, number> = {};
let faultStart: number | undefined;
let faultEnd: number | undefined;
let whereabouts = { pendingInHerald: -1, outboxRows: -1, inQueue: -1, inFlightInQueue: -1 };
/** `blackhole`: the second subscription (SNS behind the black-holing proxy) at the end of the run. */
let blackhole: BlackholeOutcome | undefined;
let blackholeSubscriptionId: string | undefined;
let blackholeProxy: BlackholeStats | undefined;
let loadStart = 0;
let loadEnd = 0;

// CPU accounting (cpu.ts): every process of the run, per role, sampled with the RSS and at the
// load's start and end and when the drain is done.
/** The consumer instances of the run: two on the same queue in `two-consumers`. */
const CONSUMER_ROLES = SCENARIO.startsWith('two-consumers') ? ['consumer', 'consumer-2'] : ['consumer'];
const RSS_ROLES = ['gateway', 'worker-1', 'worker-2', ...CONSUMER_ROLES];
const CPU_ROLES = ['gateway', 'load', 'worker-1', 'worker-2', 'peer', ...CONSUMER_ROLES, 'postgres', 'redis', 'runner'];
const cpuMeter = new CpuMeter({ selfRole: 'runner' });
const cpu: { loadStart?: CpuSnapshot; loadEnd?: CpuSnapshot; drained?: CpuSnapshot } = {};
/** The load process reports its own CPU time over its schedule (it exits before the last sample). */
let loadCpuMs: number | undefined;
let pgStatements: { calls: number; rows: number; ms: number; blocks: number; query: string }[] = [];
let pgIndexes: { index: string; scans: number; tuples: number }[] = [];
let pgAllCalls = 0;

// Ctrl-C / SIGTERM: stop every child and both services before leaving.
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    log(`${signal}: stopping`);
    void Promise.all([...children].map((entry) => stopChild(entry, 3_000))).finally(() => {
      started.redis?.stop();
      started.pg?.stop();
      log(`kept ${runDir}`);
      process.exit(130);
    });
  });
}
const started: { pg?: Awaited<ReturnType<typeof startPostgres>>; redis?: Awaited<ReturnType<typeof startRedisServer>> } = {};
const pg = await startPostgres(runDir, { statStatements: PG_STATS, synchronousCommit: SCENARIO === 'pg-kill' });
started.pg = pg;
const redis = await startRedisServer(runDir);
started.redis = redis;
log(`run directory ${runDir}; PostgreSQL ${pg.url}; Redis ${redis.url}`);
let exitCode = 0;

const innerPort = await freePort();
const proxyPort = await freePort();
const snsProxyPort = await freePort();
const gatewayPort = await freePort();
const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
const roles = new Map<string, Child>();
/** PostgreSQL backends are told apart by the application_name each process connects with. */
async function cpuSample(): Promise<CpuSnapshot> {
  const backends = new Map<number, string>();
  try {
    const sql = `SELECT pid, COALESCE(NULLIF(application_name, ''), backend_type) || CASE WHEN query LIKE 'LISTEN %' THEN ' (LISTEN)' ELSE '' END AS label
      FROM pg_stat_activity`;
    for (const row of await pgQuery(sql)) {
      backends.set(Number(row.pid), String(row.label));
    }
  } catch {
    // PostgreSQL restarting: the backends stay unlabelled this time
  }
  const roots = new Map<string, number | undefined>();
  for (const role of CPU_ROLES) roots.set(role, roles.get(role)?.child.pid);
  roots.set('postgres', pg.pid());
  roots.set('redis', redis.pid());
  const labeler: Labeler = (pid) => backends.get(pid);
  return cpuMeter.sample(roots, new Map([['postgres', labeler]]));
}
async function pgQuery(sql: string): Promise<Record<string, unknown>[]> {
  const { default: pgModule } = await import('pg');
  const client = new pgModule.Client({ connectionString: pg.url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

/** Reports a crash of a role's process (with the end of its log) and starts it again after 1 s. */
function supervise(role: string, entry: Child, restart: () => Promise<void>): void {
  void entry.exited.then(async (code) => {
    if (intended.has(entry) || finishing || interrupted) return;
    let tail = '';
    try {
      tail = readFileSync(join(runDir, `${role}.log`), 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .slice(-40)
        .join('\n');
    } catch {
      // no log
    }
    crashes.push({ role, at: Date.now(), code, tail });
    events.push({ at: Date.now(), what: `${role} (pid ${entry.child.pid}) exited by itself (${code}); restarted by the runner` });
    log(`${role} crashed (${code}); restarting`);
    await sleep(1_000);
    await restart().catch((error: unknown) => log(`restart of ${role} failed: ${String(error)}`));
  });
}

try {
  // SQS peer
  const peer = spawnTs('peer', join(HERE, 'peer.ts'), [String(innerPort), String(proxyPort), String(snsProxyPort)], {}, { ipc: true });
  roles.set('peer', peer);
  type PeerReply = { cmd: string; ok?: boolean; error?: string; queueUrl?: string; topicArn?: string; stats?: BlackholeStats; keys?: string[] };
  const peerReplies: ((message: PeerReply) => void)[] = [];
  peer.child.on('message', (message: PeerReply) => peerReplies.shift()?.(message));
  /** A command to the peer's SQS proxy, or to its SNS proxy (the black-holed destination). */
  const peerCall = (cmd: string, target: 'sqs' | 'sns' = 'sqs', keepHeld = false): Promise<PeerReply> =>
    new Promise((done) => {
      peerReplies.push(done);
      if (cmd !== 'ready') peer.child.send({ cmd, target, keepHeld });
    });
  const ready: PeerReply = await Promise.race([peerCall('ready'), peer.exited.then((code): PeerReply => ({ cmd: 'exit', error: String(code) }))]);
  if (ready.queueUrl === undefined || ready.topicArn === undefined) {
    throw new Error(`SQS peer failed: ${ready.error}`);
  }
  const queueUrl = ready.queueUrl;

  // Gateway (restarted by the runner if it crashes, as a container restart policy would)
  const startGateway = async (): Promise<void> => {
    const gateway = spawnTs('gateway', 'packages/gateway/src/cli/main.ts', ['serve'], {
      PORT: String(gatewayPort),
      HOST: '127.0.0.1',
      DATABASE_URL: `${pg.url}?application_name=gateway`,
      LOG_LEVEL: 'warn',
      HERALD_PROJECTS: PROJECT,
      HERALD_BOOTSTRAP_CLIENT: `${CLIENT.id}:${CLIENT.secret}`,
      HERALD_TOKEN_RATE_LIMIT: '0',
      HERALD_DELIVERY: 'off',
      // The gateway sends a test notification when a subscription is created.
      HERALD_SQS_ENDPOINT: `http://127.0.0.1:${proxyPort}`,
      HERALD_SNS_ENDPOINT: `http://127.0.0.1:${snsProxyPort}`,
    });
    roles.set('gateway', gateway);
    supervise('gateway', gateway, startGateway);
    await waitFor('the gateway', () => httpOk(`${gatewayUrl}/readyz`), 120_000);
  };
  await startGateway();

  // Subscription, through the API.
  const tokenReply = await fetch(`${gatewayUrl}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: `grant_type=client_credentials&scope=manage_project:${PROJECT}`,
  });
  const { access_token: token } = (await tokenReply.json()) as { access_token: string };
  const subscription = await fetch(`${gatewayUrl}/${PROJECT}/subscriptions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      key: 'soak',
      destination: { type: 'SQS', queueUrl, accessKey: 'soak', accessSecret: 'soak', region: 'us-east-1' },
      changes: [{ resourceTypeId: 'store' }],
      messages: MESSAGES ? [{ resourceTypeId: 'store' }] : [],
      format: { type: 'Platform' },
    }),
  });
  if (subscription.status !== 201) throw new Error(`subscription: ${subscription.status} ${await subscription.text()}`);
  // `blackhole`: a second subscription of the same events, to SNS behind the proxy that will stop
  // answering. Created while it answers (the API sends a test notification on creation).
  if (SCENARIO === 'blackhole') {
    const second = await fetch(`${gatewayUrl}/${PROJECT}/subscriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        key: BLACKHOLE_KEY,
        destination: { type: 'SNS', topicArn: ready.topicArn, accessKey: 'soak', accessSecret: 'soak' },
        changes: [{ resourceTypeId: 'store' }],
        messages: MESSAGES ? [{ resourceTypeId: 'store' }] : [],
        format: { type: 'Platform' },
      }),
    });
    if (second.status !== 201) throw new Error(`blackhole subscription: ${second.status} ${await second.text()}`);
    blackholeSubscriptionId = ((await second.json()) as { id: string }).id;
  }

  // Workers
  const workerEnv = {
    DATABASE_URL: pg.url,
    HERALD_SQS_ENDPOINT: `http://127.0.0.1:${proxyPort}`,
    HERALD_SNS_ENDPOINT: `http://127.0.0.1:${snsProxyPort}`,
    HERALD_DELIVERY_HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...Object.fromEntries(
      Object.entries(process.env).filter((entry): entry is [string, string] => entry[0].startsWith('HERALD_DELIVERY_') && entry[1] !== undefined),
    ),
  };
  let workerStarts = 0;
  /** worker role → its /metrics and /healthz port. */
  const workerPorts = new Map<string, number>();
  const startWorker = async (role: string): Promise<void> => {
    const port = await freePort();
    const worker = spawnTs(role, 'packages/delivery/src/worker/main.ts', [], {
      ...workerEnv,
      DATABASE_URL: `${pg.url}?application_name=${role}`,
      PORT: String(port),
      HERALD_DELIVERY_WORKER_ID: `${role}-${++workerStarts}`,
    });
    roles.set(role, worker);
    workerPorts.set(role, port);
    supervise(role, worker, () => startWorker(role));
    await waitFor(role, () => httpOk(`http://127.0.0.1:${port}/healthz`), 120_000);
  };
  await Promise.all([startWorker('worker-1'), startWorker('worker-2')]);

  // Consumer(s)
  const startConsumer = async (role: string): Promise<void> => {
    const consumer = spawnTs(
      role,
      join(HERE, 'consumer.ts'),
      [
        JSON.stringify({
          redisUrl: redis.url,
          sqsEndpoint: `http://127.0.0.1:${innerPort}`,
          queueUrl,
          handled: join(runDir, 'handled.txt'),
          received: join(runDir, 'received.txt'),
          maxWaitMs: MAX_WAIT_MS,
          ordering: ORDERING,
          maxInFlight: CONSUMER_IN_FLIGHT,
          concurrency: 64,
          instance: role,
        }),
      ],
      {},
      { stdout: true },
    );
    roles.set(role, consumer);
    supervise(role, consumer, () => startConsumer(role));
    const incarnation = consumerCounters.push({}) - 1;
    await new Promise<void>((done, fail) => {
      createInterface({ input: consumer.child.stdout! }).on('line', (line) => {
        try {
          const entry = JSON.parse(line) as { type: string } & Record<string, number>;
          if (entry.type === 'ready') done();
          else if (entry.type === 'counters') consumerCounters[incarnation] = entry;
        } catch {
          appendFileSync(join(runDir, `${role}.log`), `${line}\n`);
        }
      });
      void consumer.exited.then((code) => fail(new Error(`consumer exited (${code})`)));
    });
  };
  await Promise.all(CONSUMER_ROLES.map((role) => startConsumer(role)));

  // Load
  log(`load: ${RATE} writes/s for ${DURATION_S} s, scenario ${SCENARIO}${SCENARIO === 'none' ? '' : ` at ${FAULT_AT_S} s`}`);
  const load = spawnTs(
    'load',
    join(HERE, 'load.ts'),
    [
      JSON.stringify({
        url: gatewayUrl,
        project: PROJECT,
        clientId: CLIENT.id,
        clientSecret: CLIENT.secret,
        rate: RATE,
        durationMs: DURATION_S * 1000,
        out: join(runDir, 'writes.txt'),
        maxInFlight: 64,
        createShare: 0.3,
      }),
    ],
    {},
    { stdout: true },
  );
  createInterface({ input: load.child.stdout! }).on('line', (line) => {
    try {
      const entry = JSON.parse(line) as { type: string } & Record<string, number>;
      loadSummary = entry;
      if (entry.type === 'done' && typeof entry.cpuMs === 'number') loadCpuMs = entry.cpuMs;
    } catch {
      // not ours
    }
  });
  if (PG_STATS) await pgQuery('CREATE EXTENSION IF NOT EXISTS pg_stat_statements; SELECT pg_stat_statements_reset(); SELECT pg_stat_reset()');
  loadStart = Date.now();
  cpu.loadStart = await cpuSample();
  const loadDone = load.exited.then(async (code) => {
    loadEnd = Date.now();
    cpu.loadEnd = await cpuSample();
    if (code !== 0) throw new Error(`load exited with ${code}`);
  });

  const sampler = setInterval(() => {
    void cpuSample();
    const t = Date.now();
    for (const role of RSS_ROLES) {
      const pid = roles.get(role)?.child.pid;
      const rss = rssKb(pid);
      if (pid !== undefined && rss !== undefined) samples.push({ t, role, pid, rssKb: rss });
    }
    ingest();
    const lag = outstanding();
    const elapsed = Math.round((t - loadStart) / 1000);
    log(
      `t=${elapsed}s written=${loadSummary.committed ?? 0} expected=${expected.size} handled=${handled.size} outstanding=${lag} ` +
        `rss(MB) ${RSS_ROLES.map((role) => `${role}=${Math.round((rssKb(roles.get(role)?.child.pid) ?? 0) / 1024)}`).join(' ')} load=${loadavg()[0]!.toFixed(1)}`,
    );
  }, SAMPLE_MS);

  // Fault
  const fault = async (): Promise<void> => {
    await sleep(FAULT_AT_S * 1000);
    faultStart = Date.now();
    const note = (what: string): void => {
      events.push({ at: Date.now(), what });
      log(what);
    };
    switch (SCENARIO) {
      case 'none':
        faultStart = undefined;
        return;
      case 'kill-worker': {
        const worker = roles.get('worker-1')!;
        intended.add(worker);
        worker.child.kill('SIGKILL');
        await worker.exited;
        faultEnd = Date.now();
        note(`kill -9 worker-1 (pid ${worker.child.pid})`);
        await sleep(5_000);
        await startWorker('worker-1');
        note('worker-1 restarted');
        return;
      }
      case 'pg-restart':
        note('pg_ctl restart -m fast');
        pg.restart();
        faultEnd = Date.now();
        note('PostgreSQL back');
        return;
      case 'destination-down': {
        const reply = await peerCall('down');
        note(`SQS destination refuses connections (${reply.ok === true ? 'ok' : reply.error})`);
        await sleep(DOWN_S * 1000);
        const up = await peerCall('up');
        faultEnd = Date.now();
        note(`SQS destination back (${up.ok === true ? 'ok' : up.error})`);
        return;
      }
      case 'redis-restart':
        note(`redis SHUTDOWN (pid ${redis.pid()})`);
        await redis.restart(2_000);
        faultEnd = Date.now();
        note(`redis back (pid ${redis.pid()})`);
        return;
      case 'kill-consumer':
      case 'two-consumers-kill': {
        const consumer = roles.get('consumer')!;
        intended.add(consumer);
        consumer.child.kill('SIGKILL');
        await consumer.exited;
        note(`kill -9 consumer (pid ${consumer.child.pid})`);
        await sleep(2_000);
        await startConsumer('consumer');
        faultEnd = Date.now();
        note('consumer restarted');
        return;
      }
      case 'pg-kill':
        note(`pg_ctl stop -m immediate (postmaster pid ${pg.pid()})`);
        pg.crash();
        note('PostgreSQL stopped');
        await sleep(DOWN_S * 1000);
        pg.start();
        faultEnd = Date.now();
        note(`PostgreSQL started again, crash recovery done (postmaster pid ${pg.pid()})`);
        return;
      case 'blackhole': {
        const reply = await peerCall('blackhole', 'sns');
        note(`SNS destination of ${BLACKHOLE_KEY} accepts connections and never answers (${reply.ok === true ? 'ok' : reply.error})`);
        await sleep(DOWN_S * 1000);
        // Read before `up`, which cuts the connections still held.
        blackholeProxy = (await peerCall('stats', 'sns')).stats;
        const up = await peerCall('up', 'sns', KEEP_HUNG);
        faultEnd = Date.now();
        note(
          `SNS destination answers again (${up.ok === true ? 'ok' : up.error}); the connections left hanging are ${KEEP_HUNG ? 'kept open and silent' : 'cut'}`,
        );
        return;
      }
      case 'kill-gateway': {
        const gateway = roles.get('gateway')!;
        intended.add(gateway);
        gateway.child.kill('SIGKILL');
        await gateway.exited;
        note(`kill -9 gateway (pid ${gateway.child.pid})`);
        await startGateway();
        faultEnd = Date.now();
        note('gateway restarted and ready');
        return;
      }
      case 'two-consumers':
        faultStart = undefined;
        return;
    }
  };
  await Promise.all([loadDone, fault()]);
  log(`load done: ${JSON.stringify(loadSummary)}`);

  // Drain: every expected delivery handled, then a short settle to see late copies.
  const drainDeadline = Date.now() + DRAIN_S * 1000;
  ingest();
  const blackholeDrained = async (): Promise<boolean> =>
    blackholeSubscriptionId === undefined || (await subscriptionBacklog(pg.url, blackholeSubscriptionId)).pending === 0;
  while ((outstanding() > 0 || !(await blackholeDrained().catch(() => false))) && Date.now() < drainDeadline) {
    await sleep(1_000);
    ingest();
  }
  const drainedAt = Date.now();
  cpu.drained = await cpuSample();
  if (PG_STATS) {
    pgStatements = (
      await pgQuery(
        `SELECT calls::float8 AS calls, rows::float8 AS rows, total_exec_time AS ms, (shared_blks_hit + shared_blks_read)::float8 AS blocks,
           query, sum(calls) OVER ()::float8 AS all_calls FROM pg_stat_statements
         WHERE query NOT LIKE '%pg_stat_statements%' ORDER BY total_exec_time DESC LIMIT 30`,
      ).catch((error: unknown) => {
        log(`pg_stat_statements: ${String(error)}`);
        return [];
      })
    ).map((row) => {
      pgAllCalls = Number(row.all_calls);
      return { calls: Number(row.calls), rows: Number(row.rows), ms: Number(row.ms), blocks: Number(row.blocks), query: String(row.query) };
    });
    pgIndexes = (
      await pgQuery(
        `SELECT indexrelname AS index, idx_scan::float8 AS scans, idx_tup_read::float8 AS tuples FROM pg_stat_user_indexes
         WHERE idx_tup_read > 0 ORDER BY idx_tup_read DESC LIMIT 12`,
      ).catch(() => [])
    ).map((row) => ({ index: String(row.index), scans: Number(row.scans), tuples: Number(row.tuples) }));
  }
  await sleep(5_000);
  clearInterval(sampler);
  finishing = true;
  await Promise.all(CONSUMER_ROLES.map((role) => stopChild(roles.get(role))));
  ingest();
  whereabouts = await locateUnhandled(pg.url, `http://127.0.0.1:${innerPort}`, queueUrl);
  if (blackholeSubscriptionId !== undefined) {
    blackhole = {
      ...(await subscriptionBacklog(pg.url, blackholeSubscriptionId)),
      keysInItsQueue: (await peerCall('keys')).keys ?? [],
      proxy: blackholeProxy,
      attempts: await workerAttempts(workerPorts.values()),
    };
  }

  // ------------------------------------------------------------ report
  const markdown = report(drainedAt);
  process.stdout.write(markdown);
  if (REPORT !== undefined) appendFileSync(REPORT, markdown);
  writeFileSync(join(runDir, 'report.md'), markdown);
} catch (error) {
  exitCode = 1;
  log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
} finally {
  finishing = true;
  await Promise.all([...children].map((entry) => stopChild(entry, 5_000)));
  redis.stop();
  pg.stop();
  if (exitCode === 0 && !KEEP && crashes.length === 0) rmSync(runDir, { recursive: true, force: true });
  else log(`kept ${runDir}`);
}
process.exit(exitCode);

/** Where events not handled are at the end: still in Herald's tables, or in the SQS queue. */
async function locateUnhandled(databaseUrl: string, sqsEndpoint: string, queueUrl: string): Promise<typeof whereabouts> {
  const result = { pendingInHerald: -1, outboxRows: -1, inQueue: -1, inFlightInQueue: -1 };
  try {
    const { default: pgModule } = await import('pg');
    const client = new pgModule.Client({ connectionString: databaseUrl });
    await client.connect();
    // The measured subscription's only (the black-holed one's are reported on their own).
    result.pendingInHerald = Number(
      (await client.query('SELECT count(*) AS n FROM deliveries WHERE subscription_id <> $1', [blackholeSubscriptionId ?? ''])).rows[0].n,
    );
    result.outboxRows = Number((await client.query('SELECT count(*) AS n FROM outbox')).rows[0].n);
    await client.end();
  } catch (error) {
    log(`could not count Herald's pending deliveries: ${String(error)}`);
  }
  const depth = await queueDepth(sqsEndpoint, queueUrl);
  result.inQueue = depth.visible;
  result.inFlightInQueue = depth.inFlight;
  return result;
}

// ---------------------------------------------------------------- report
function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
function median(values: number[]): number {
  return quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

function report(drainedAt: number): string {
  const lost = [...expected.keys()].filter((key) => !handled.has(key));
  let twice = 0;
  let testNotifications = 0;
  let extraExecutions = 0;
  const twiceKeys: string[] = [];
  for (const [key, entry] of handled) {
    if (!expected.has(key)) {
      if (key.startsWith(keyPrefix)) unexpectedHandled++;
      else testNotifications++;
    }
    if (entry.count > 1) {
      twice++;
      extraExecutions += entry.count - 1;
      if (twiceKeys.length < 5) twiceKeys.push(key);
    }
  }
  let sentTwice = 0;
  let redelivered = 0;
  for (const ids of received.values()) {
    const distinct = new Set(ids).size;
    if (distinct > 1) sentTwice += distinct - 1;
    redelivered += ids.length - distinct;
  }
  const latencies = [...handled.values()]
    .filter((entry) => entry.payloadAt > 0)
    .map((entry) => entry.at - entry.payloadAt)
    .sort((a, b) => a - b);
  const counters: Record<string, number> = {};
  for (const incarnation of consumerCounters)
    for (const [name, value] of Object.entries(incarnation)) if (typeof value === 'number') counters[name] = (counters[name] ?? 0) + value;
  const counter = (name: string): number => counters[name] ?? 0;

  // Recovery: from the fault's end until everything committed before it was handled.
  let recovery = 'n/a';
  if (faultEnd !== undefined) {
    let last = 0;
    let missing = 0;
    for (const [key, at] of expected) {
      if (at >= faultEnd) continue;
      const entry = handled.get(key);
      if (entry === undefined) missing++;
      else last = Math.max(last, entry.at);
    }
    recovery = missing > 0 ? `not recovered (${missing} missing)` : `${(Math.max(0, last - faultEnd) / 1000).toFixed(1)} s`;
  }
  const windowLatency = (from: number, to: number): string => {
    const values = [...handled.values()]
      .filter((entry) => entry.payloadAt >= from && entry.payloadAt < to)
      .map((entry) => entry.at - entry.payloadAt)
      .sort((a, b) => a - b);
    return values.length === 0
      ? 'n/a'
      : `p50 ${quantile(values, 0.5)} ms, p99 ${quantile(values, 0.99)} ms, max ${quantile(values, 1)} ms (${values.length} events)`;
  };

  // RSS: baseline after warm-up vs the end of the load.
  const warmupMs = Math.min(60_000, (DURATION_S * 1000) / 4);
  const windowMs = Math.min(30_000, (DURATION_S * 1000) / 5);
  const rssRows: string[][] = [];
  for (const role of RSS_ROLES) {
    const mine = samples.filter((sample) => sample.role === role && sample.t <= loadEnd);
    const pids = new Set(mine.map((sample) => sample.pid));
    const last = mine.at(-1);
    const current = mine.filter((sample) => sample.pid === last?.pid);
    const base = current.filter((sample) => sample.t >= loadStart + warmupMs && sample.t < loadStart + warmupMs + windowMs).map((s) => s.rssKb);
    const end = current.filter((sample) => sample.t >= loadEnd - windowMs).map((s) => s.rssKb);
    const max = Math.max(...current.map((s) => s.rssKb));
    const mb = (kb: number): string => (Number.isNaN(kb) ? 'n/a' : `${(kb / 1024).toFixed(0)} MB`);
    const growth = base.length > 0 && end.length > 0 ? `${(((median(end) - median(base)) / median(base)) * 100).toFixed(1)} %` : 'n/a';
    rssRows.push([role + (pids.size > 1 ? ' (restarted; last process)' : ''), mb(median(base)), mb(median(end)), mb(max), growth]);
  }
  const series = (role: string): string => {
    const mine = samples.filter((sample) => sample.role === role);
    const step = Math.max(1, Math.ceil(mine.length / 12));
    return mine
      .filter((_, i) => i % step === 0)
      .map((s) => `${Math.round((s.t - loadStart) / 1000)}s:${Math.round(s.rssKb / 1024)}`)
      .join(' ');
  };

  // CPU: per process, over the load and over load + drain (all the work the writes caused).
  const writes = loadSummary.committed ?? 0;
  const cpuRows: string[][] = [];
  let cpuNote = 'n/a (no samples)';
  if (cpu.loadStart !== undefined && cpu.loadEnd !== undefined && cpu.drained !== undefined) {
    const during = cpuBetween(cpu.loadStart, cpu.loadEnd);
    const through = cpuBetween(cpu.loadStart, cpu.drained);
    if (loadCpuMs !== undefined) {
      during.set('load', loadCpuMs);
      through.set('load', loadCpuMs);
    }
    const loadS = (cpu.loadEnd.at - cpu.loadStart.at) / 1000;
    const drainS = (cpu.drained.at - cpu.loadStart.at) / 1000;
    const perWrite = (ms: number): string => (writes > 0 ? (ms / writes).toFixed(2) : 'n/a');
    const row = (name: string, a: number, b: number): string[] => [name, (a / 1000).toFixed(1), (a / 1000 / loadS).toFixed(2), perWrite(a), perWrite(b)];
    let oursDuring = 0;
    let oursThrough = 0;
    const ordered = [...CPU_ROLES].sort((x, y) => (through.get(y) ?? 0) - (through.get(x) ?? 0));
    for (const role of ordered) {
      const a = during.get(role) ?? 0;
      const b = through.get(role) ?? 0;
      oursDuring += a;
      oursThrough += b;
      cpuRows.push(row(role, a, b));
      // PostgreSQL split by the backends' application_name (live processes, up to their last
      // sample); the rest is what processes used that exited between samples.
      const parts = [...through.keys()].filter((key) => key.startsWith(`${role}/`));
      if (parts.length === 0) continue;
      let partsDuring = 0;
      let partsThrough = 0;
      for (const part of parts.sort((x, y) => (through.get(y) ?? 0) - (through.get(x) ?? 0))) {
        partsDuring += during.get(part) ?? 0;
        partsThrough += through.get(part) ?? 0;
        cpuRows.push(row(`&nbsp;&nbsp;↳ ${part.slice(role.length + 1)}`, during.get(part) ?? 0, through.get(part) ?? 0));
      }
      cpuRows.push(
        row('&nbsp;&nbsp;↳ exited between samples (autovacuum workers, closed connections)', Math.max(0, a - partsDuring), Math.max(0, b - partsThrough)),
      );
    }
    cpuRows.push(row('**all of the run**', oursDuring, oursThrough).map((cell, i) => (i === 0 ? cell : `**${cell}**`)));
    const machineDuring = cpu.loadEnd.machineMs - cpu.loadStart.machineMs;
    const machineThrough = cpu.drained.machineMs - cpu.loadStart.machineMs;
    const irqDuring = cpu.loadEnd.interruptMs - cpu.loadStart.interruptMs;
    const irqThrough = cpu.drained.interruptMs - cpu.loadStart.interruptMs;
    const stealDuring = cpu.loadEnd.stealMs - cpu.loadStart.stealMs;
    const stealThrough = cpu.drained.stealMs - cpu.loadStart.stealMs;
    const interruptsDuring = irqDuring + stealDuring;
    const interruptsThrough = irqThrough + stealThrough;
    cpuRows.push(row('interrupts (softirq: loopback TCP), not in any process', irqDuring, irqThrough));
    cpuRows.push(row('steal (the hypervisor ran something else)', stealDuring, stealThrough));
    cpuRows.push(
      row(
        'other processes on the machine',
        Math.max(0, machineDuring - oursDuring - interruptsDuring),
        Math.max(0, machineThrough - oursThrough - interruptsThrough),
      ),
    );
    const others = othersBetween(cpu.loadStart, cpu.drained);
    if (others.length > 0) {
      cpuRows.push([
        '&nbsp;&nbsp;↳ busiest of them (load + drain)',
        others.map((other) => `${other.comm} ${(other.ms / 1000).toFixed(1)} s`).join(', '),
        '',
        '',
        '',
      ]);
    }
    cpuNote = `load ${loadS.toFixed(0)} s, load + drain ${drainS.toFixed(0)} s, ${writes} writes; ${cpus().length} cores = ${cpus().length * 1000} CPU ms/s`;
  }
  const statementRows = pgStatements.map((statement) => [
    String(statement.calls),
    writes > 0 ? (statement.calls / writes).toFixed(2) : 'n/a',
    String(statement.rows),
    statement.ms.toFixed(0),
    (statement.ms / Math.max(1, statement.calls)).toFixed(3),
    (statement.blocks / Math.max(1, statement.calls)).toFixed(1),
    `\`${statement.query.replace(/\s+/g, ' ').replaceAll('|', '\\|').replaceAll('`', "'").slice(0, 160)}\``,
  ]);
  const totalCalls = pgAllCalls;

  const faultText: Record<Scenario, string> = {
    none: 'none',
    'kill-worker': 'kill -9 of worker-1 (restarted 5 s later); its leases expire after the lease time (30 s default)',
    'pg-restart': '`pg_ctl restart -m fast` of the cluster (every connection of gateway and workers cut)',
    'destination-down': `the SQS endpoint the workers use refuses connections for ${DOWN_S} s (TCP proxy closed; queue contents kept)`,
    'redis-restart': 'Redis SHUTDOWN, down 2 s, started again on the same port (AOF, appendfsync always: no data lost)',
    'kill-consumer': 'kill -9 of the consumer process (restarted 2 s later)',
    'pg-kill': `\`pg_ctl stop -m immediate\` (no shutdown checkpoint: crash recovery on start), started again ${DOWN_S} s later; synchronous_commit on`,
    blackhole: `subscription \`${BLACKHOLE_KEY}\` (SNS, same events) gets a destination that accepts connections and never answers, for ${DOWN_S} s; then the connections left hanging are ${KEEP_HUNG ? 'kept open and silent' : 'cut'}`,
    'kill-gateway': 'kill -9 of the gateway during the writes, restarted at once (as a container restart policy would)',
    'two-consumers': 'none (two consumer instances on the queue)',
    'two-consumers-kill': 'kill -9 of the first of two consumer instances (restarted 2 s later); the second runs throughout',
  };
  const rows: string[][] = [
    [
      'writes committed (HTTP 2xx) / sent',
      `${loadSummary.committed ?? 0} / ${loadSummary.sent ?? 0} (achieved ${loadSummary.achievedRate ?? 0}/s, the writer lagged its schedule by up to ${((loadSummary.behind ?? 0) / 1000).toFixed(1)} s; ${loadSummary.ambiguous ?? 0} ambiguous, ${loadSummary.resolved ?? 0} resolved by re-reading, ${loadSummary.rejected ?? 0} rejected, ${loadSummary.conflicts ?? 0} conflicts)`,
    ],
    ['events expected (change + message per write)', String(expected.size)],
    [
      '… of which of writes acknowledged (2xx received) / of writes whose answer was lost, found committed',
      `${expected.size - resolvedKeys.size} / ${resolvedKeys.size}`,
    ],
    ['**events not handled** at the end (expected, handler never ran)', `**${lost.length}**${lost.length > 0 ? ` e.g. ${lost.slice(0, 2).join(', ')}` : ''}`],
    ['… of which of acknowledged writes', `**${lost.filter((key) => !resolvedKeys.has(key)).length}**`],
    [
      '… of which received by the consumer / never received',
      `${lost.filter((key) => received.has(key)).length} / ${lost.filter((key) => !received.has(key)).length}`,
    ],
    [
      'at the end: pending in Herald (deliveries, outbox) / in the SQS queue (visible, in flight)',
      `${whereabouts.pendingInHerald}, ${whereabouts.outboxRows} / ${whereabouts.inQueue}, ${whereabouts.inFlightInQueue}`,
    ],
    ['handled store events not expected (ambiguous writes that committed)', String(unexpectedHandled)],
    ["other handled events (the subscription's creation test notification)", String(testNotifications)],
    [
      '**events whose handler ran more than once**',
      `**${twice}** (${extraExecutions} extra executions)${twiceKeys.length > 0 ? ` e.g. ${twiceKeys.join(', ')}` : ''}`,
    ],
    ['copies Herald sent twice (distinct SQS MessageIds for one dedup key)', String(sentTwice)],
    ['SQS redeliveries (same MessageId received again)', String(redelivered)],
    ['SQS receipts in total', String(receipts)],
    [
      'absorbed by the consumer: duplicates / late / gap timeouts',
      `${counter('herald_consumer_duplicates_total')} / ${counter('herald_consumer_late_total')} / ${counter('herald_consumer_gap_timeouts_total')}`,
    ],
    [
      'consumer deferrals (busy / store-unavailable / buffer-full)',
      `${counter('herald_consumer_deferred_total{busy}')} / ${counter('herald_consumer_deferred_total{store-unavailable}')} / ${counter('herald_consumer_deferred_total{buffer-full}')}`,
    ],
    [
      'latency commit → handler, all events',
      latencies.length === 0 ? 'n/a' : `p50 ${quantile(latencies, 0.5)} ms, p99 ${quantile(latencies, 0.99)} ms, max ${quantile(latencies, 1)} ms`,
    ],
    [
      '**per-resource order**: handler runs behind a later one of their lane (unmarked / marked late by the consumer)',
      `**${laneOrder.behindUnmarked}** / ${laneOrder.behindMarkedLate}${laneOrder.unmarkedExamples.length > 0 ? ` e.g. ${laneOrder.unmarkedExamples.join(', ')}` : ''}`,
    ],
  ];
  if (CONSUMER_ROLES.length > 1) {
    rows.push(['first executions by instance', [...handledBy].map(([instance, count]) => `${instance} ${count}`).join(', ')]);
  }
  if (faultStart !== undefined) {
    rows.push(['latency before the fault', windowLatency(loadStart, faultStart)]);
    rows.push(['latency of events written during the fault', windowLatency(faultStart, faultEnd ?? faultStart)]);
    rows.push([
      'latency of events written after recovery + 10 s',
      windowLatency((faultEnd ?? faultStart) + 10_000 + (recovery.endsWith(' s') ? Number.parseFloat(recovery) * 1000 : 0), loadEnd),
    ]);
    rows.push([
      'fault',
      `${faultText[SCENARIO]}; injected at ${Math.round((faultStart - loadStart) / 1000)} s, over at ${Math.round(((faultEnd ?? faultStart) - loadStart) / 1000)} s`,
    ]);
    rows.push(['recovery (fault over → everything committed before it handled)', recovery]);
  }
  if (blackhole !== undefined) rows.push(...blackholeRows(blackhole, BLACKHOLE_KEY, expected));
  rows.push([
    '**processes that crashed** (restarted by the runner)',
    crashes.length === 0
      ? '**none**'
      : `**${crashes.map((crash) => `${crash.role} at ${Math.round((crash.at - loadStart) / 1000)} s (${crash.code})`).join(', ')}**`,
  ]);
  rows.push(['drained (last expected event handled) after the load ended', `${((drainedAt - loadEnd) / 1000).toFixed(1)} s`]);

  const table = (head: string[], body: string[][]): string =>
    [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...body.map((row) => `| ${row.join(' | ')} |`)].join('\n');
  return `### Soak: scenario \`${SCENARIO}\`, ${DURATION_S} s at ${RATE} writes/s

- Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}; load average at the end ${loadavg()
    .map((v) => v.toFixed(1))
    .join(' ')}
- Command: \`npm run soak -- ${process.argv.slice(2).join(' ')}\`; messages subscribed: ${MESSAGES ? 'yes' : 'no'}; consumer ordering ${ORDERING ? `on (maxWaitMs ${MAX_WAIT_MS})` : 'off'}, SqsPoller maxInFlight ${CONSUMER_IN_FLIGHT}, handler concurrency 64; 2 workers (${
    Object.entries(process.env)
      .filter(([name]) => name.startsWith('HERALD_DELIVERY_'))
      .map(([name, value]) => `${name}=${value}`)
      .join(', ') || 'default settings'
  })

${table(['measure', 'result'], rows)}

RSS (VmRSS sampled every ${SAMPLE_MS / 1000} s; baseline = median over ${windowMs / 1000} s after a ${warmupMs / 1000} s warm-up, end = median over the last ${windowMs / 1000} s of load):

${table(['process', 'baseline', 'end', 'max', 'growth'], rssRows)}

CPU (user + system from \`/proc/<pid>/stat\`, each process with its descendants; postgres = the postmaster and its backends, split by application_name; ${cpuNote}):

${table(['process', 'CPU s during load', 'cores during load', 'CPU ms / write (load)', 'CPU ms / write (load + drain)'], cpuRows)}
${
  statementRows.length === 0
    ? ''
    : `
<details><summary>pg_stat_statements, load + drain: top ${statementRows.length} by execution time (${totalCalls} calls, ${writes > 0 ? (totalCalls / writes).toFixed(1) : 'n/a'} per write)</summary>

${table(['calls', 'per write', 'rows', 'total ms', 'mean ms', 'buffers / call', 'statement'], statementRows)}

Index entries read (pg_stat_user_indexes, since the load started):

${table(
  ['index', 'scans', 'entries read', 'per scan'],
  pgIndexes.map((entry) => [entry.index, String(entry.scans), String(entry.tuples), (entry.tuples / Math.max(1, entry.scans)).toFixed(1)]),
)}
</details>
`
}
<details><summary>RSS series (s:MB)</summary>

${RSS_ROLES.map((role) => `- ${role}: ${series(role)}`).join('\n')}

${events.map((event) => `- ${Math.round((event.at - loadStart) / 1000)} s: ${event.what}`).join('\n')}
</details>
${crashes.map((crash) => `\nEnd of the log of ${crash.role} before it exited (${crash.code}):\n\n\`\`\`\n${crash.tail}\n\`\`\`\n`).join('')}

`;
}
