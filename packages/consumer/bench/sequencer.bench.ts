/**
 * The sequencer alone on the pipeline bench's arrival order (no parsing, no Redis, no handler):
 * `node --expose-gc --conditions=@herald/source --import tsx bench/sequencer.bench.ts` (with
 * --expose-gc each round starts after a full collection: without it, a round paid for the garbage
 * of the round before, and the order of the rounds decided which variant looked faster). CPU µs per delivery, median of
 * BENCH_ROUNDS (6) rounds after a warm-up, for the unfiltered stream (20,000 resources × 10
 * messages) and the type-filtered one (100,000 resources, 1 message in 5 kept), 1,000 in flight, a
 * released delivery finishing on the next turn as a quick handler's would.
 *
 * A/B: BENCH_BASELINE=<another checkout>/packages/consumer/src/ordering/sequencer.ts alternates its
 * rounds with this checkout's in one process, so that the host's load falls on both alike (on the
 * shared 2-core host, separate runs moved by more than the differences measured).
 */
import { performance } from 'node:perf_hooks';
import { systemClock } from '../src/clock.js';
import { silentLogger } from '../src/logger.js';
import { Sequencer, type SequencedItem } from '../src/ordering/sequencer.js';
import { markdownTable } from './support.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const IN_FLIGHT = 1_000;

/** The same generator, grouping and shuffle as bench/pipeline.bench.ts (duplicates left out: the sequencer never sees them). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/** Arrivals as [resource number, sequenceNumber] pairs. */
function arrivals(resources: number, filtered: boolean): [number, number][] {
  const next = random(42);
  const typeOf = random(7);
  const list: [number, number][] = [];
  for (let first = 0; first < resources; first += 16) {
    for (let sequenceNumber = 1; sequenceNumber <= 10; sequenceNumber++) {
      for (let resource = first; resource < Math.min(resources, first + 16); resource++) {
        if (filtered && Math.floor(typeOf() * 5) !== 0) continue;
        list.push([resource, sequenceNumber]);
      }
    }
  }
  for (let start = 0; start < list.length; start += 64) {
    const end = Math.min(list.length, start + 64);
    for (let index = end - 1; index > start; index--) {
      const other = start + Math.floor(next() * (index - start + 1));
      [list[index], list[other]] = [list[other] as [number, number], list[index] as [number, number]];
    }
  }
  return list;
}

type SequencerClass = typeof Sequencer;

/** One round: CPU µs per delivery (the item objects the loop makes included, alike for every variant). */
async function round(Kind: SequencerClass, stream: readonly [number, number][], filtered: boolean): Promise<number> {
  const finishing: SequencedItem[] = [];
  const sequencer = new Kind(
    {
      clock: systemClock,
      logger: silentLogger,
      readPositions: () => Promise.resolve({}),
      release: (item) => finishing.push(item),
      reject: () => undefined,
      observe: { bufferWait: () => undefined, gap: () => undefined },
    },
    {
      maxWaitMs: 30_000,
      maxBacklogWaitMs: 600_000,
      maxBufferedPerResource: 1_000,
      maxBuffered: 100_000,
      unknownStart: 'hold',
      filteredMessages: () => filtered,
      minHoldMs: 25,
      maxHoldMs: 1_000,
      minHoldArrivals: 16,
      positionRefreshMs: 1_000,
      positionCacheSize: 10_000,
      failOpen: false,
    },
  );
  let inFlight = 0;
  let index = 0;
  // The previous round's garbage is collected before this one, not charged to it (run with --expose-gc).
  (globalThis as { gc?: () => void }).gc?.();
  const cpu = process.cpuUsage();
  while (index < stream.length || inFlight > 0) {
    while (index < stream.length && inFlight < IN_FLIGHT) {
      const [resource, sequenceNumber] = stream[index++] as [number, number];
      const streamKey = `proj:business-unit:bu-${resource}`;
      const payload = { notificationType: 'Message', sequenceNumber, resource: { typeId: 'business-unit', id: `bu-${resource}` } };
      inFlight++;
      sequencer.submit({
        key: `herald:${streamKey}:m:${sequenceNumber}`,
        stream: streamKey,
        lane: 'm',
        ordinal: sequenceNumber,
        payload,
      } as unknown as SequencedItem);
    }
    await new Promise((resolve) => setImmediate(resolve));
    for (const item of finishing.splice(0)) {
      inFlight--;
      sequencer.finished(item, { advanced: true });
    }
  }
  const used = process.cpuUsage(cpu);
  sequencer.close();
  return (used.user + used.system) / stream.length;
}

const variants: [string, SequencerClass][] = [['this checkout', Sequencer]];
const baseline = process.env.BENCH_BASELINE;
if (baseline) variants.unshift([`baseline (${baseline})`, ((await import(baseline)) as { Sequencer: SequencerClass }).Sequencer]);
const streams: [string, [number, number][], boolean][] = [
  ['unfiltered (20,000 resources × 10)', arrivals(20_000, false), false],
  ['type-filtered (100,000 resources, 1 in 5 kept)', arrivals(100_000, true), true],
];
const samples = new Map<string, number[]>();
const startedAt = performance.now();
for (let index = -1; index < ROUNDS; index++) {
  for (const [variant, Kind] of variants) {
    for (const [name, stream, filtered] of streams) {
      const micros = await round(Kind, stream, filtered);
      if (index >= 0) samples.set(`${variant}\u0000${name}`, [...(samples.get(`${variant}\u0000${name}`) ?? []), micros]);
    }
  }
}
const rows = [...samples].map(([key, values]) => {
  const [variant, name] = key.split('\u0000') as [string, string];
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] as number;
  return [variant, name, median.toFixed(2), `${(sorted[0] as number).toFixed(2)}–${(sorted[sorted.length - 1] as number).toFixed(2)}`];
});
console.log(markdownTable(['sequencer', 'stream', 'CPU µs/delivery (median)', `range of ${ROUNDS} rounds`], rows));
console.log(`\n${((performance.now() - startedAt) / 1000).toFixed(0)} s, Node ${process.version}`);
