import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { startRedis } from '../../testkit/src/services/redis.js';
import { RedisDedupStore } from '../src/index.js';
const server = await startRedis();
const redis = new Redis(server.url);
const store = new RedisDedupStore({ redis }, { keyPrefix: 'b' });
const N = 200_000, B = Number(process.env.B ?? 500), P = Number(process.env.P ?? 8);
const reqs = Array.from({ length: N }, (_, i) => ({ key: `b:proj:business-unit:bu-${i % 20000}:m:${Math.floor(i / 20000) + 1}`, owner: 'o', position: { stream: `proj:business-unit:bu-${i % 20000}`, lane: 'm' as const, ordinal: Math.floor(i / 20000) + 1 } }));
async function phase(name: string, fn: (batch: typeof reqs) => Promise<unknown>) {
  const c0 = process.cpuUsage(); const r0 = Number((await redis.info('cpu')).match(/used_cpu_user:([\d.]+)/)![1]);
  const t = performance.now(); let next = 0;
  await Promise.all(Array.from({ length: P }, async () => { while (next < N) { const s = next; next += B; await fn(reqs.slice(s, s + B)); } }));
  const wall = performance.now() - t; const c = process.cpuUsage(c0); const r1 = Number((await redis.info('cpu')).match(/used_cpu_user:([\d.]+)/)![1]);
  console.log(name, Math.round(N / (wall / 1000)), '/s', 'node µs/item', ((c.user + c.system) / N).toFixed(2), 'redis µs/item', (((r1 - r0) * 1e6) / N).toFixed(2));
}
await phase('claim', (b) => store.claim(b));
await phase('complete', (b) => store.complete(b));
await phase('positions', (b) => store.readPositions(b.map((r) => r.position.stream)));
const info = await redis.info('commandstats'); console.log(info.split('\n').filter((l) => l.includes('evalsha') || l.includes('hmget')).join('\n'));
const cpu = await redis.info('cpu'); console.log(cpu.split('\n').filter((l) => l.startsWith('used_cpu')).join(' '));
console.log('node cpu', process.cpuUsage());
redis.disconnect(); await server.stop();
