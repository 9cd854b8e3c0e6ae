import { performance } from 'node:perf_hooks';
import { createConsumer, MemoryDedupStore } from '../src/index.js';
import { messagePayload } from '../test/support/fixtures.js';
const N = 400_000;
const bodies: string[] = [];
for (let s = 1; s <= 10; s++) for (let r = 0; r < N / 10; r++) bodies.push(JSON.stringify(messagePayload(s, { id: `bu-${r}` })));
const consumer = createConsumer({ dedup: new MemoryDedupStore(), ordering: { maxWaitMs: 30_000 }, concurrency: 1000, handler: () => undefined });
let inFlight = 0; let wake: (() => void) | undefined;
const t = performance.now(); const c0 = process.cpuUsage();
(globalThis as any).__start = true;
for (const body of bodies) {
  while (inFlight >= 2000) await new Promise<void>((r) => (wake = r));
  inFlight++;
  void consumer.process({ source: 'sqs', body }).then(() => { inFlight--; const w = wake; wake = undefined; w?.(); });
}
while (inFlight > 0) await new Promise<void>((r) => (wake = r));
const c = process.cpuUsage(c0);
console.log(Math.round(N / ((performance.now() - t) / 1000)), '/s; cpu µs/delivery', ((c.user + c.system) / N).toFixed(1));
