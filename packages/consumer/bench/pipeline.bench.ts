/**
 * Deliveries/s through parse + dedup + reorder + handler in one process:
 * `npx tsx bench/pipeline.bench.ts` (uses REDIS_URL, or starts a throwaway redis-server).
 * Target: >= 100,000/s with real Redis.
 *
 * Each row is the median of BENCH_ROUNDS rounds (5), after an unmeasured warm-up round on each
 * store (a long-running consumer's code is optimised by V8 long before it matters; the first
 * seconds of a cold process are not what it runs at). Each Redis round uses its own key prefix,
 * and its keys are deleted afterwards, so every round meets a server of the same size. The rows
 * compared with each other (the Redis row and the filtered stream's) alternate their rounds (see
 * measuredTogether).
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import v8 from 'node:v8';
import vm from 'node:vm';
import { fileURLToPath } from 'node:url';
import { performance, PerformanceObserver } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { Registry } from 'prom-client';
import { deduplicationKey, resourceStreamKey } from '@herald/model';
import { redisAvailable, startRedis } from '@herald/testkit';
import { createConsumer, MemoryDedupStore, parseDelivery, RedisDedupStore, type ClaimRequest, type DedupStore, type ProcessOutcome } from '../src/index.js';
import { cloudEventOf, messagePayload } from '../test/support/fixtures.js';
import { formatRate, markdownTable } from './support.js';

const RESOURCES = Number(process.env.BENCH_RESOURCES ?? 20_000);
const MESSAGES_PER_RESOURCE = Number(process.env.BENCH_MESSAGES ?? 10);
/**
 * Deliveries handed to the consumer and not settled yet, like a source's flow control: 1,000 is the
 * largest default of the bundled sources (Pub/Sub flow control; SQS 100, Service Bus 16). More in
 * flight only keeps more deliveries alive across young-generation collections (4,000 measured about
 * a quarter slower with Redis), while batching and reordering need far fewer.
 */
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 1_000);
/** Resources whose messages are interleaved at a time (so a resource's messages are close together). */
const RESOURCES_AT_A_TIME = 16;
/** Arrival order is shuffled within windows of this many deliveries: most resources arrive out of order. */
const SHUFFLE_WINDOW = 64;
const DUPLICATE_EVERY = 20;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

/** A deterministic generator, so runs are comparable. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/**
 * The arrivals, kept in one buffer and decoded as they are fed: a transport hands over a fresh
 * string per message, while 200,000 strings held for the whole run would put their old-generation
 * GC work into the measurement.
 */
class Arrivals {
  private readonly buffer: Buffer;
  private readonly offsets: Uint32Array;
  private readonly sampledFlags: Uint8Array;
  readonly length: number;

  constructor(
    bodies: readonly string[],
    /** The resource number of each body (`bu-{n}`). */
    owners: readonly number[],
    /** Resources `bu-0` … `bu-{resources − 1}` (the handler's order check keeps one slot each). */
    readonly resources: number,
  ) {
    this.length = bodies.length;
    this.offsets = new Uint32Array(bodies.length + 1);
    for (let index = 0; index < bodies.length; index++) this.offsets[index + 1] = (this.offsets[index] as number) + Buffer.byteLength(bodies[index] as string);
    this.buffer = Buffer.from(bodies.join(''));
    this.sampledFlags = new Uint8Array(bodies.length);
    for (let index = 0; index < bodies.length; index++) if ((owners[index] as number) % LATENCY_SAMPLE === 0) this.sampledFlags[index] = 1;
  }

  body(index: number): string {
    return this.buffer.toString('utf8', this.offsets[index], this.offsets[index + 1]);
  }

  /** Is this arrival's latency sampled (see LATENCY_SAMPLE)? */
  sampled(index: number): boolean {
    return this.sampledFlags[index] === 1;
  }
}

/** Message types of the filtered stream: each message has one of these, and the subscription keeps the first. */
const FILTER_TYPES = 5;

/**
 * The arrivals. With `filtered`, each message gets one of FILTER_TYPES types at random and only
 * one type is kept, as a subscription with `messages[].types` would deliver it: sequenceNumbers
 * with gaps by design, and a resource's first delivery rarely its sequenceNumber 1.
 */
function arrivals(resources: number, filtered = false): Arrivals {
  const next = random(42);
  const typeOf = random(7);
  const bodies: string[] = [];
  const owners: number[] = [];
  // A few resources at a time, their messages interleaved in order, then shuffled locally.
  for (let first = 0; first < resources; first += RESOURCES_AT_A_TIME) {
    for (let sequenceNumber = 1; sequenceNumber <= MESSAGES_PER_RESOURCE; sequenceNumber++) {
      for (let resource = first; resource < Math.min(resources, first + RESOURCES_AT_A_TIME); resource++) {
        if (filtered && Math.floor(typeOf() * FILTER_TYPES) !== 0) continue;
        const payload = messagePayload(sequenceNumber, { id: `bu-${resource}` });
        // Half Platform, half CloudEvents, as a mixed fleet of subscriptions would deliver.
        const body = JSON.stringify(resource % 2 === 0 ? payload : cloudEventOf(payload));
        bodies.push(body);
        owners.push(resource);
        if (bodies.length % DUPLICATE_EVERY === 0) {
          bodies.push(body);
          owners.push(resource);
        }
      }
    }
  }
  for (let start = 0; start < bodies.length; start += SHUFFLE_WINDOW) {
    const end = Math.min(bodies.length, start + SHUFFLE_WINDOW);
    for (let index = end - 1; index > start; index--) {
      const other = start + Math.floor(next() * (index - start + 1));
      [bodies[index], bodies[other]] = [bodies[other] as string, bodies[index] as string];
      [owners[index], owners[other]] = [owners[other] as number, owners[index] as number];
    }
  }
  return new Arrivals(bodies, owners, resources);
}

/** Milliseconds of garbage-collection pauses so far (V8's `gc` performance entries). */
let gcMillis = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMillis += entry.duration;
}).observe({ entryTypes: ['gc'] });

/** The pauses so far, once the entries of collections already done have been delivered. */
async function gcMillisSoFar(): Promise<number> {
  await new Promise((resolve) => setImmediate(resolve));
  return gcMillis;
}

/** One measured round. */
interface Round {
  readonly store: string;
  readonly deliveries: number;
  readonly seconds: number;
  readonly handled: number;
  readonly duplicates: number;
  readonly other: number;
  /** Handed to the handler after a later one of their resource (`context.late`): their predecessor came after a hold ended. */
  readonly late: number;
  /** CPU time of this process per delivery (µs). */
  readonly nodeMicros: number;
  /** Of the process's time, its garbage collections' pauses per delivery (µs), when measured. */
  readonly gcMicros?: number;
  /** CPU time of redis-server per delivery (µs), when measured. */
  readonly redisMicros?: number;
  /** From `process()` to the handler, ms, p50 / p99 of a sample of the deliveries (filtered rows). */
  readonly latencyP50?: number;
  readonly latencyP99?: number;
  /** redis-server's commands during the round (INFO commandstats), per delivery, when measured. */
  readonly commands?: CommandCounts;
}

/** Per command (lower case, as INFO names it): calls and microseconds inside it. */
type CommandCounts = Map<string, { calls: number; usec: number }>;

/** redis-server's counts of each command so far (INFO commandstats; commands run by scripts included). */
async function commandCounts(redis: Redis): Promise<CommandCounts> {
  const counts: CommandCounts = new Map();
  for (const match of (await redis.info('commandstats')).matchAll(/cmdstat_([\w|]+):calls=(\d+),usec=(\d+)/g)) {
    counts.set(match[1] as string, { calls: Number(match[2]), usec: Number(match[3]) });
  }
  return counts;
}

/** What `after` adds to `before`, divided by `deliveries`. */
function commandsPerDelivery(before: CommandCounts, after: CommandCounts, deliveries: number): CommandCounts {
  const result: CommandCounts = new Map();
  for (const [name, { calls, usec }] of after) {
    const earlier = before.get(name) ?? { calls: 0, usec: 0 };
    if (calls > earlier.calls) result.set(name, { calls: (calls - earlier.calls) / deliveries, usec: (usec - earlier.usec) / deliveries });
  }
  return result;
}

/** redis-server's CPU seconds so far (INFO cpu), to charge the store's work per delivery. */
async function redisCpuSeconds(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const field = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return field('used_cpu_user') + field('used_cpu_sys');
}

/** A row of the table: the median round by throughput, and the range of all rounds. */
interface Row extends Round {
  readonly rounds: number;
  readonly slowest: number;
  readonly fastest: number;
  /** Each round's deliveries/s, in the order the rounds ran. */
  readonly rates: readonly number[];
}

function rate(round: Round): number {
  return round.deliveries / round.seconds;
}

/** Measures `rounds` rounds after one unmeasured warm-up round; `round(index)` runs one (index -1: the warm-up). */
async function measured(rounds: number, round: (index: number) => Promise<Round>): Promise<Row> {
  return (await measuredTogether(rounds, [round]))[0] as Row;
}

/**
 * A full garbage collection, when this process can ask for one: with `--expose-gc`, or else by
 * turning the flag on at run time (V8 then exposes `gc` to contexts made afterwards).
 */
const collectGarbage: () => void = (() => {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  v8.setFlagsFromString('--expose-gc');
  const made = vm.runInNewContext('gc') as (() => void) | undefined;
  return made ?? (() => undefined);
})();

/**
 * Rows whose figures are compared with each other (the filtered stream's against the unfiltered
 * pipeline's): each has its unmeasured warm-up round, then their measured rounds alternate (round
 * 0 of each, round 1 of each, …), so that a change in the host's load during the run falls on all
 * of them alike instead of on whichever row ran at the time (on this shared 2-core host, the load
 * moved a row by more than the gap being measured). Two carry-overs from one round to the next are
 * removed: every round starts after a full collection (else it paid for the old-generation garbage
 * of the round before it: the unfiltered row's 10,000 cached lanes, collected in the filtered row's
 * time, which always came next), and the rows' order turns by one each round (no row always
 * follows the same one). Each row keeps its rounds in order, to compare rounds run side by side.
 */
async function measuredTogether(rounds: number, rowRounds: readonly ((index: number) => Promise<Round>)[]): Promise<Row[]> {
  for (const round of rowRounds) {
    collectGarbage();
    await round(-1);
  }
  const results: Round[][] = rowRounds.map(() => []);
  for (let index = 0; index < rounds; index++) {
    for (let turn = 0; turn < rowRounds.length; turn++) {
      const row = (turn + index) % rowRounds.length;
      collectGarbage();
      (results[row] as Round[]).push(await (rowRounds[row] as (index: number) => Promise<Round>)(index));
    }
  }
  return results.map((rowResults) => {
    const sorted = [...rowResults].sort((a, b) => rate(a) - rate(b));
    const median = sorted[Math.floor(sorted.length / 2)] as Round;
    return { ...median, rounds, slowest: rate(sorted[0] as Round), fastest: rate(sorted[sorted.length - 1] as Round), rates: rowResults.map(rate) };
  });
}

/** Deletes the keys under `prefix` (SCAN + UNLINK), so that the next round meets a server of the same size. */
async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 10_000);
    cursor = next;
    if (keys.length > 0) await redis.unlink(...keys);
  } while (cursor !== '0');
}

/** How a round's consumer orders: the default pipeline, a filtered stream declared as such, or none. */
type RoundOrdering = 'unfiltered' | 'filtered' | 'none';

/**
 * The deliveries of every LATENCY_SAMPLE-th resource have their time to the handler measured (a map
 * entry each, kept small). Chosen by resource, not by arrival, so that the handler tells a sampled
 * delivery from its resource number and looks only those up (a map lookup per delivery cost the
 * filtered rows, and only them, about 0.1 µs per delivery).
 */
const LATENCY_SAMPLE = 16;

/** `123` of `bu-123`, the bench's resource ids, read without allocating. */
function resourceNumberOf(id: string): number {
  let number = 0;
  for (let index = 3; index < id.length; index++) number = number * 10 + id.charCodeAt(index) - 48;
  return number;
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

/** One round through a consumer on `store`; with `metrics`, the consumer records its Prometheus metrics. */
async function run(
  storeName: string,
  store: DedupStore,
  bodies: Arrivals,
  redis?: Redis,
  metrics?: Registry,
  ordering: RoundOrdering = 'unfiltered',
): Promise<Round> {
  let handled = 0;
  let outOfOrder = 0;
  const unannounced: string[] = [];
  let late = 0;
  // The order check's last sequenceNumber per resource (0: none yet), a slot per resource: a map
  // of the filtered stream's 100,000 resources cost its rows 0.2–0.4 µs per delivery more than
  // the unfiltered stream's 20,000 (hashing, misses, promoted keys), work of the bench's, not the consumer's.
  const lastSequence = new Int32Array(bodies.resources);
  const sampledAt = ordering === 'unfiltered' ? undefined : new Map<string, number>();
  const latencies: number[] = [];
  const consumer = createConsumer({
    dedup: store,
    metrics: metrics ? { registry: metrics } : undefined,
    ordering: ordering === 'none' ? undefined : { maxWaitMs: 30_000, filteredMessages: ordering === 'filtered' },
    concurrency: 1_000,
    handler: (delivery, context) => {
      handled++;
      if (delivery.notificationType !== 'Message') return;
      const resource = resourceNumberOf(delivery.payload.resource.id);
      if (sampledAt !== undefined && resource % LATENCY_SAMPLE === 0) {
        const at = sampledAt.get(delivery.payload.id);
        if (at !== undefined) {
          latencies.push(performance.now() - at);
          sampledAt.delete(delivery.payload.id);
        }
      }
      if (ordering === 'none') return;
      // Handed over after a later one, and told so: not lost, not out of order unannounced.
      if (context.late !== undefined) {
        late++;
        return;
      }
      const id = delivery.payload.resource.id;
      const stored = lastSequence[resource] as number;
      const last = stored === 0 ? undefined : stored;
      const sequence = delivery.payload.sequenceNumber;
      // A release past a gap is announced (`context.gap`): skipping is then expected, going back is
      // not. So is a resource's first release (README, *Ordering model*: a first-seen resource's
      // delivery is held briefly, `unknownStart: 'hold'`; on a stalled host its 25 ms can pass
      // before sequenceNumber 1 arrives, which then comes marked late and is counted as such).
      const skipMayBe = ordering !== 'unfiltered' || context.gap !== undefined || last === undefined;
      const inOrder = skipMayBe ? sequence > (last ?? 0) : sequence === last + 1;
      if (!inOrder) {
        outOfOrder++;
        if (unannounced.length < 5) unannounced.push(`${id}: ${sequence} after ${last}${context.gap ? ` (gap ${JSON.stringify(context.gap)})` : ''}`);
      }
      lastSequence[resource] = sequence;
    },
  });
  let inFlight = 0;
  let duplicates = 0;
  let other = 0;
  let wake: (() => void) | undefined;
  // The feeder sleeps until a tenth of the window is free, so it costs little per delivery.
  const refillBelow = Math.floor(IN_FLIGHT * 0.9);
  const settled = (outcome: ProcessOutcome): void => {
    inFlight--;
    const status = outcome.items[0]?.status;
    if (status === 'duplicate') duplicates++;
    else if (status !== 'processed') other++;
    if (inFlight > refillBelow && inFlight > 0) return;
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  const commandsBefore = redis ? await commandCounts(redis) : undefined;
  const redisCpuBefore = redis ? await redisCpuSeconds(redis) : 0;
  const gcBefore = await gcMillisSoFar();
  const cpuBefore = process.cpuUsage();
  const startedAt = performance.now();
  for (let index = 0; index < bodies.length; index++) {
    while (inFlight >= IN_FLIGHT) await new Promise<void>((resolve) => (wake = resolve));
    inFlight++;
    const body = bodies.body(index);
    // The sample is keyed by message id, read from the body without parsing it twice; a duplicate
    // keeps its first copy's time (the handler runs once, for whichever copy comes first).
    if (sampledAt !== undefined && bodies.sampled(index)) {
      const id = messageIdOf(body);
      if (!sampledAt.has(id)) sampledAt.set(id, performance.now());
    }
    void consumer.process({ source: 'sqs', body }).then(settled);
  }
  while (inFlight > 0) await new Promise<void>((resolve) => (wake = resolve));
  const seconds = (performance.now() - startedAt) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const gcMicros = (((await gcMillisSoFar()) - gcBefore) * 1000) / bodies.length;
  const redisMicros = redis ? (((await redisCpuSeconds(redis)) - redisCpuBefore) * 1e6) / bodies.length : undefined;
  const commands = redis && commandsBefore ? commandsPerDelivery(commandsBefore, await commandCounts(redis), bodies.length) : undefined;
  await consumer.close();
  const nodeMicros = (cpu.user + cpu.system) / bodies.length;
  if (outOfOrder > 0) throw new Error(`${outOfOrder} deliveries reached the handler out of order without context.late, first: ${unannounced.join('; ')}`);
  latencies.sort((a, b) => a - b);
  const latency = latencies.length === 0 ? {} : { latencyP50: percentile(latencies, 0.5), latencyP99: percentile(latencies, 0.99) };
  return { store: storeName, deliveries: bodies.length, seconds, handled, duplicates, other, late, nodeMicros, gcMicros, redisMicros, commands, ...latency };
}

/** The `id` of a Platform message or of a CloudEvent's data (the first `"id":"msg-` in the body). */
function messageIdOf(body: string): string {
  const start = body.indexOf('"msg-');
  return body.slice(start + 1, body.indexOf('"', start + 1));
}

/**
 * The design's floor, for comparison: only what every delivery needs (parse, dedup key, one claim
 * and one completion in pipelined batches of 64), with no consumer around it (no ordering, no
 * handler, no per-delivery promise). Nothing here is deduplicated or ordered for real.
 */
async function floor(store: DedupStore, bodies: Arrivals, redis: Redis): Promise<Round> {
  const BATCH = 64;
  const BATCHES_IN_FLIGHT = 16;
  const commandsBefore = await commandCounts(redis);
  const redisCpuBefore = await redisCpuSeconds(redis);
  const cpuBefore = process.cpuUsage();
  const startedAt = performance.now();
  for (let start = 0; start < bodies.length; start += BATCH * BATCHES_IN_FLIGHT) {
    const calls: Promise<void>[] = [];
    for (let first = start; first < Math.min(bodies.length, start + BATCH * BATCHES_IN_FLIGHT); first += BATCH) {
      const requests: ClaimRequest[] = [];
      for (let index = first; index < Math.min(bodies.length, first + BATCH); index++) {
        const parsed = parseDelivery({ source: 'sqs', body: bodies.body(index) });
        if (parsed.kind !== 'delivery' || parsed.delivery.notificationType === 'Event') throw new Error('the bench produced an unparsable delivery');
        const payload = parsed.delivery.payload;
        const stream = resourceStreamKey(payload);
        const ordinal = payload.notificationType === 'Message' ? payload.sequenceNumber : payload.version * 2;
        requests.push({ key: deduplicationKey(payload, store.keyPrefix, stream), owner: 'floor', position: { stream, lane: 'm', ordinal } });
      }
      calls.push(store.claim(requests).then(() => store.complete(requests)));
    }
    await Promise.all(calls);
  }
  const seconds = (performance.now() - startedAt) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const redisMicros = (((await redisCpuSeconds(redis)) - redisCpuBefore) * 1e6) / bodies.length;
  const commands = commandsPerDelivery(commandsBefore, await commandCounts(redis), bodies.length);
  return {
    store: 'floor: parse + claim + complete only (no consumer)',
    commands,
    deliveries: bodies.length,
    seconds,
    handled: 0,
    duplicates: 0,
    other: 0,
    late: 0,
    nodeMicros: (cpu.user + cpu.system) / bodies.length,
    redisMicros,
  };
}

/** Young-generation size for the re-run row: most of a delivery's objects then die young. */
const SEMI_SPACE_MB = 64;

/**
 * The Redis row again in a child process with a larger young generation (`--max-semi-space-size`),
 * the V8 setting the consumer README discusses for high-throughput consumers.
 */
function redisRowWithLargerYoungGeneration(redisUrl: string): Row | undefined {
  const child = spawnSync(
    process.execPath,
    [`--max-semi-space-size=${SEMI_SPACE_MB}`, '--conditions=@herald/source', '--import', 'tsx', fileURLToPath(import.meta.url)],
    {
      env: { ...process.env, REDIS_URL: redisUrl, BENCH_CHILD: '1' },
      encoding: 'utf8',
      maxBuffer: 16 << 20,
    },
  );
  const line = child.stdout.split('\n').find((candidate) => candidate.startsWith('{'));
  if (child.status !== 0 || line === undefined) {
    console.warn(`re-run with --max-semi-space-size failed (exit ${child.status}): ${child.stderr.slice(0, 500)}`);
    return undefined;
  }
  return { ...(JSON.parse(line) as Row), store: `RedisDedupStore, node --max-semi-space-size=${SEMI_SPACE_MB}` };
}

/** The Redis row's rounds: each with its own key prefix, its keys deleted afterwards. */
function measureRedis(redis: Redis, bodies: Arrivals, withMetrics = false, ordering: RoundOrdering = 'unfiltered'): Promise<Row> {
  return measured(ROUNDS, redisRound(redis, bodies, withMetrics, ordering));
}

/** One Redis round of a row (index -1: its warm-up). */
function redisRound(redis: Redis, bodies: Arrivals, withMetrics = false, ordering: RoundOrdering = 'unfiltered'): (index: number) => Promise<Round> {
  const name =
    ordering === 'filtered'
      ? 'RedisDedupStore, type-filtered stream (1 type in 5), ordering on (filteredMessages)'
      : ordering === 'none'
        ? 'RedisDedupStore, type-filtered stream (1 type in 5), ordering off'
        : withMetrics
          ? 'RedisDedupStore, metrics on (prom-client)'
          : 'RedisDedupStore (redis-server, loopback)';
  return async (index) => {
    const prefix = `bench-${process.pid}-${Date.now()}-${ordering}-${index}`;
    try {
      return await run(name, new RedisDedupStore({ redis }, { keyPrefix: prefix }), bodies, redis, withMetrics ? new Registry() : undefined, ordering);
    } finally {
      await deleteKeys(redis, prefix);
    }
  };
}

async function main(): Promise<void> {
  const bodies = arrivals(RESOURCES);
  if (process.env.BENCH_CHILD) {
    const redis = new Redis(process.env.REDIS_URL as string);
    try {
      console.log(JSON.stringify(await measureRedis(redis, bodies)));
    } finally {
      redis.disconnect();
    }
    return;
  }
  // BENCH_ROWS=memory,redis,metrics,floor,floor-filtered,semi-space picks rows (e.g. to profile one); all by default.
  // filtered: the filtered stream (5 × the resources, so about as many deliveries), ordered and not;
  // filtered-on: only its ordered row.
  const wanted = new Set((process.env.BENCH_ROWS ?? 'memory,redis,filtered,metrics,floor,semi-space').split(','));
  const rows: Row[] = [];
  if (wanted.has('memory')) rows.push(await measured(ROUNDS, () => run('MemoryDedupStore', new MemoryDedupStore(), bodies)));

  const external = process.env.REDIS_URL;
  if (!external && !redisAvailable()) {
    console.warn('no REDIS_URL and no redis-server on PATH: Redis row skipped');
  } else if (['redis', 'filtered', 'filtered-on', 'metrics', 'floor', 'floor-filtered', 'semi-space'].some((row) => wanted.has(row))) {
    const server = external ? { url: external, stop: async () => undefined } : await startRedis();
    const redis = new Redis(server.url);
    try {
      // The unfiltered pipeline and the filtered stream's rows are compared: their rounds alternate.
      const compared: ((index: number) => Promise<Round>)[] = [];
      if (wanted.has('redis')) compared.push(redisRound(redis, bodies));
      if (wanted.has('filtered') || wanted.has('filtered-on')) {
        const filtered = arrivals(RESOURCES * FILTER_TYPES, true);
        compared.push(redisRound(redis, filtered, false, 'filtered'));
        // filtered-on: the ordered filtered row alone (to profile it).
        if (wanted.has('filtered')) compared.push(redisRound(redis, filtered, false, 'none'));
      }
      if (compared.length > 0) rows.push(...(await measuredTogether(ROUNDS, compared)));
      if (wanted.has('metrics')) rows.push(await measureRedis(redis, bodies, true));
      if (wanted.has('floor') || wanted.has('floor-filtered')) {
        // floor-filtered: the design's floor on the filtered stream too, rounds alternating, to
        // tell what its positions cost redis-server apart from what the consumer makes of them.
        const streams = wanted.has('floor-filtered') ? [bodies, arrivals(RESOURCES * FILTER_TYPES, true)] : [bodies];
        const floorRounds = streams.map((stream, streamIndex) => async (index: number) => {
          const prefix = `bench-floor-${process.pid}-${Date.now()}-${streamIndex}-${index}`;
          try {
            const round = await floor(new RedisDedupStore({ redis }, { keyPrefix: prefix }), stream, redis);
            return streamIndex === 0 ? round : { ...round, store: `${round.store}, type-filtered stream` };
          } finally {
            await deleteKeys(redis, prefix);
          }
        });
        rows.push(...(await measuredTogether(ROUNDS, floorRounds)));
      }
      const tuned = wanted.has('semi-space') ? redisRowWithLargerYoungGeneration(server.url) : undefined;
      if (tuned) rows.push(tuned);
    } finally {
      redis.disconnect();
      await server.stop();
    }
  }

  console.log(
    `\n### Parse + dedup + reorder + handler, one process (${os.cpus().length} cores ${os.cpus()[0]?.model ?? ''}, load average ${os.loadavg()[0]?.toFixed(1)}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)})\n`,
  );
  console.log(
    `${RESOURCES.toLocaleString('en-US')} resources × ${MESSAGES_PER_RESOURCE} messages (${RESOURCES_AT_A_TIME} resources interleaved at a time), 1 in ${DUPLICATE_EVERY} duplicated, shuffled in windows of ${SHUFFLE_WINDOW}, ${IN_FLIGHT.toLocaleString('en-US')} in flight, half Platform / half CloudEvents. Each row is the median of ${ROUNDS} rounds after an unmeasured warm-up round; its CPU columns are the median round's. The rounds of the Redis row and of the filtered stream's rows alternate (their order turning each round, each after a full garbage collection), so that the host's load falls on them alike.\n`,
  );
  console.log(
    markdownTable(
      [
        'dedup store',
        'deliveries',
        'seconds',
        'deliveries/s (median)',
        `range of ${ROUNDS} rounds`,
        'consumer CPU µs/delivery',
        'of it GC pauses',
        'redis-server CPU µs/delivery',
        'to handler p50 / p99 ms',
        'handler runs',
        'of them late',
        'duplicates',
        'other outcomes',
      ],
      rows.map((row) => [
        row.store,
        row.deliveries.toLocaleString('en-US'),
        row.seconds.toFixed(2),
        formatRate(rate(row)),
        `${formatRate(row.slowest)}–${formatRate(row.fastest)}`,
        row.nodeMicros.toFixed(1),
        row.gcMicros === undefined ? '—' : row.gcMicros.toFixed(1),
        row.redisMicros === undefined ? '—' : row.redisMicros.toFixed(1),
        row.latencyP99 === undefined ? '—' : `${(row.latencyP50 ?? 0).toFixed(1)} / ${row.latencyP99.toFixed(1)}`,
        row.handled.toLocaleString('en-US'),
        row.late.toLocaleString('en-US'),
        row.duplicates.toLocaleString('en-US'),
        String(row.other),
      ]),
    ),
  );
  const withCommands = rows.filter((row) => row.commands !== undefined);
  if (withCommands.length > 0) console.log(`\n${commandTable(withCommands)}`);
  console.log('\nCPU per delivery is what a dedicated core each would turn into throughput: 1e6 / max(consumer, redis-server) µs.');
  const redisRow = rows.find((row) => row.store.startsWith('RedisDedupStore ('));
  const floorRow = rows.find((row) => row.store.startsWith('floor'));
  if (redisRow?.redisMicros !== undefined && floorRow?.redisMicros !== undefined) console.log(`\n${cpuBudget(redisRow, floorRow)}`);
  const filteredOrdered = rows.find((row) => row.store.includes('ordering on'));
  const filteredUnordered = rows.find((row) => row.store.includes('ordering off'));
  if (redisRow && filteredOrdered && filteredUnordered) console.log(`\n${filteredVerdict(redisRow, filteredOrdered, filteredUnordered)}`);
}

/**
 * redis-server's commands per delivery in each row's median round (INFO commandstats, which counts
 * the commands scripts run too): calls, and microseconds spent in them.
 */
function commandTable(rows: readonly Row[]): string {
  const names = [...new Set(rows.flatMap((row) => [...(row.commands as CommandCounts).keys()]))].filter(
    (name) => name !== 'info' && name !== 'scan' && name !== 'unlink',
  );
  names.sort();
  const header = ['Redis commands per delivery: calls / µs', ...names];
  const lines = rows.map((row) => [
    row.store,
    ...names.map((name) => {
      const count = (row.commands as CommandCounts).get(name);
      return count === undefined ? '—' : `${count.calls.toFixed(3)} / ${count.usec.toFixed(2)}`;
    }),
  ]);
  return markdownTable(header, lines);
}

/**
 * Targets of the filtered stream: ordering adds ≤ 50 ms at p99, and keeps throughput within 10% of
 * the unfiltered pipeline. The throughput ratio is given twice: of the rows' medians, and as the
 * median of the ratios of rounds run side by side (round i of each row): the host's load moves
 * every round, and a pair of neighbouring rounds shares more of it than two medians do.
 */
function filteredVerdict(unfiltered: Row, ordered: Row, unordered: Row): string {
  const added = (ordered.latencyP99 ?? Number.NaN) - (unordered.latencyP99 ?? Number.NaN);
  const ratio = rate(ordered) / rate(unfiltered);
  const pairs = ordered.rates.map((orderedRate, index) => orderedRate / (unfiltered.rates[index] as number)).sort((a, b) => a - b);
  const paired = pairs[Math.floor(pairs.length / 2)] as number;
  const percent = (value: number) => `${(value * 100).toFixed(0)}%`;
  return [
    `Filtered stream (1 message type in ${FILTER_TYPES} kept, shuffled alike, declared with \`filteredMessages\`): ordering adds`,
    `${added.toFixed(1)} ms at p99 from \`process()\` to the handler (${(ordered.latencyP99 ?? 0).toFixed(1)} ms ordered against ${(unordered.latencyP99 ?? 0).toFixed(1)} ms`,
    `without ordering; target ≤ 50 ms: ${added <= 50 ? 'met' : 'not met'}); its throughput is ${percent(ratio)} of the unfiltered pipeline's`,
    `in the same run (target ≥ 90%: ${ratio >= 0.9 ? 'met' : 'not met'}); round by round (filtered ÷ unfiltered, rounds run side by side):`,
    `${pairs.map(percent).join(', ')}, median ${percent(paired)} (${paired >= 0.9 ? 'met' : 'not met'}).`,
  ].join('\n');
}

const TARGET_PER_SECOND = 100_000;

/** What the measured CPU per delivery means for the target on this machine (cores at the target rate). */
function cpuBudget(redisRow: Row, floorRow: Row): string {
  const median = rate(redisRow);
  const coresAt = (micros: number) => ((micros * TARGET_PER_SECOND) / 1e6).toFixed(2);
  const verdict = median >= TARGET_PER_SECOND ? 'met' : 'not met';
  return [
    `Target ≥ ${formatRate(TARGET_PER_SECOND)} deliveries/s with real Redis: ${verdict} (median ${formatRate(median)}/s).`,
    `At ${formatRate(TARGET_PER_SECOND)}/s the measured work per delivery takes ${coresAt(redisRow.nodeMicros)} cores in this process and`,
    `${coresAt(redisRow.redisMicros as number)} in redis-server (${os.cpus().length} cores here). Of redis-server's share, the floor row —`,
    `a claim (one \`SET NX GET\` with a TTL) and a completion (\`SET XX KEEPTTL\`) per delivery and a position read and raise per`,
    `resource per batch, in Lua, which is what the two-state design needs — alone takes ${coresAt(floorRow.redisMicros as number)} cores.`,
  ].join('\n');
}

await main();
