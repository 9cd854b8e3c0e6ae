import { performance } from 'node:perf_hooks';
import { createConsumer, MemoryDedupStore, type DedupStore } from '../src/index.js';
import { messagePayload } from '../test/support/fixtures.js';
const N = 200_000;
const bodies: string[] = [];
for (let s = 1; s <= 10; s++) for (let r = 0; r < N / 10; r++) bodies.push(JSON.stringify(messagePayload(s, { id: `bu-${r}` })));
function delayed(store: DedupStore, ms: number): DedupStore {
  const wait = <T>(v: Promise<T>) => v.then((x) => new Promise<T>((r) => setTimeout(() => r(x), ms)));
  return { kind: 'memory', keyPrefix: store.keyPrefix, leaseMs: store.leaseMs, claim: (r) => wait(store.claim(r)), renew: (r) => wait(store.renew(r)), release: (r) => wait(store.release(r)), complete: (r) => wait(store.complete(r)), readPositions: (r) => wait(store.readPositions(r)) };
}
async function run(name: string, store: DedupStore, window: number) {
  const consumer = createConsumer({ dedup: store, ordering: { maxWaitMs: 30_000 }, concurrency: 1000, handler: () => undefined });
  let inFlight = 0; let wake: (() => void) | undefined;
  const t = performance.now(); const c0 = process.cpuUsage();
  for (const body of bodies) {
    while (inFlight >= window) await new Promise<void>((r) => (wake = r));
    inFlight++;
    void consumer.process({ source: 'sqs', body }).then(() => { inFlight--; const w = wake; wake = undefined; w?.(); });
  }
  while (inFlight > 0) await new Promise<void>((r) => (wake = r));
  const c = process.cpuUsage(c0);
  console.log(name, Math.round(N / ((performance.now() - t) / 1000)), '/s; cpu µs/delivery', ((c.user + c.system) / N).toFixed(1));
}
await run('memory', new MemoryDedupStore(), 2000);
await run('memory + 1ms', delayed(new MemoryDedupStore(), 1), 2000);
await run('memory + 3ms', delayed(new MemoryDedupStore(), 3), 2000);
await run('memory + 3ms w10k', delayed(new MemoryDedupStore(), 3), 10000);
