import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { startRedis } from '../../testkit/src/services/redis.js';
const server = await startRedis();
const redis = new Redis(server.url);
console.log((await redis.info('server')).split('\n').find((l) => l.startsWith('redis_version')));
const N = 200_000, B = 100, P = 8;
const keys = Array.from({ length: N }, (_, i) => `b:proj:business-unit:bu-${i % 20000}:m:${Math.floor(i / 20000) + 1}`);
const pos = Array.from({ length: N }, (_, i) => `b:proj:business-unit:bu-${i % 20000}:pos`);
async function phase(name: string, fn: (s: number, e: number) => Promise<unknown>) {
  const c0 = process.cpuUsage(); const r0 = Number((await redis.info('cpu')).match(/used_cpu_user:([\d.]+)/)![1]);
  const t = performance.now(); let next = 0;
  await Promise.all(Array.from({ length: P }, async () => { while (next < N) { const s = next; next += B; await fn(s, Math.min(N, s + B)); } }));
  const wall = performance.now() - t; const c = process.cpuUsage(c0); const r1 = Number((await redis.info('cpu')).match(/used_cpu_user:([\d.]+)/)![1]);
  console.log(name, Math.round(N / (wall / 1000)), '/s', 'node µs/item', ((c.user + c.system) / N).toFixed(2), 'redis µs/item', (((r1 - r0) * 1e6) / N).toFixed(2));
}
await phase('native claim (SET NX GET PX + ZSCORE)', (s, e) => { const p = redis.pipeline(); for (let i = s; i < e; i++) { p.set(keys[i]!, 'p|123|owner', 'PX', 90000, 'NX', 'GET'); p.zscore(pos[i]!, 'm'); } return p.exec(); });
await phase('native complete (SET PX + ZADD GT + PEXPIRE)', (s, e) => { const p = redis.pipeline(); for (let i = s; i < e; i++) { p.set(keys[i]!, 'd|123', 'PX', 604800000); p.zadd(pos[i]!, 'GT', Math.floor(i / 20000) + 1, 'm'); p.pexpire(pos[i]!, 604800000); } return p.exec(); });
redis.disconnect(); await server.stop();
