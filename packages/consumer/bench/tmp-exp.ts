import { performance } from 'node:perf_hooks';
import { createConsumer, MemoryDedupStore, parseDelivery } from '../src/index.js';
import { messagePayload } from '../test/support/fixtures.js';
const N = 300_000;
const bodies: string[] = [];
for (let s = 1; s <= 10; s++) for (let r = 0; r < N / 10; r++) bodies.push(JSON.stringify(messagePayload(s, { id: `bu-${r}` })));
async function run(name: string, ordering: boolean, window: number) {
  const consumer = createConsumer({ dedup: new MemoryDedupStore(), ordering: ordering ? { maxWaitMs: 30_000 } : undefined, concurrency: 1000, handler: () => undefined });
  let inFlight = 0; let wake: (() => void) | undefined;
  const t = performance.now();
  for (const body of bodies) {
    while (inFlight >= window) await new Promise<void>((r) => (wake = r));
    inFlight++;
    void consumer.process({ source: 'sqs', body }).then(() => { inFlight--; const w = wake; wake = undefined; w?.(); });
  }
  while (inFlight > 0) await new Promise<void>((r) => (wake = r));
  console.log(name, Math.round(N / ((performance.now() - t) / 1000)));
}
let t = performance.now(); for (const b of bodies) parseDelivery({ source: 'sqs', body: b }); console.log('parse only', Math.round(N / ((performance.now() - t) / 1000)));
// await run('no ordering w=10000', false, 10_000);
// await run('ordering w=10000', true, 10_000);
// await run('no ordering w=1000', false, 1_000);
await run('ordering w=1000', true, 1_000);
