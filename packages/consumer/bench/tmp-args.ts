import { Redis } from 'ioredis';
import { startRedis } from '../../testkit/src/services/redis.js';
const server = await startRedis();
const redis = new Redis(server.url);
const sha = await redis.script('LOAD', 'return 0') as string;
const N = 200_000, B = 100;
async function trial(name: string, make: (i: number) => string[], perItemKeys: number) {
  const c0 = process.cpuUsage();
  const calls: Promise<unknown>[] = [];
  for (let s = 0; s < N; s += B) {
    const args: string[] = []; for (let i = s; i < s + B; i++) args.push(...make(i));
    calls.push(redis.evalsha(sha, perItemKeys * B, ...args));
    if (calls.length >= 8) await Promise.all(calls.splice(0));
  }
  await Promise.all(calls);
  const c = process.cpuUsage(c0);
  console.log(name.padEnd(40), ((c.user + c.system) / N).toFixed(2), 'node µs/item');
}
await trial('4 args (2 keys + lane + ordinal)', (i) => [`b:proj:business-unit:bu-${i}:m:3`, `b:proj:business-unit:bu-${i}:pos`, 'm', String(i)], 2);
await trial('2 keys only', (i) => [`b:proj:business-unit:bu-${i}:m:3`, `b:proj:business-unit:bu-${i}:pos`], 2);
await trial('1 packed arg', (i) => [`b:proj:business-unit:bu-${i}:m:3|m|${i}`], 0);
await trial('4 args, strings pre-made', (() => { const pre = Array.from({ length: N }, (_, i) => [`b:proj:business-unit:bu-${i}:m:3`, `b:proj:business-unit:bu-${i}:pos`, 'm', String(i)]); return (i: number) => pre[i]!; })(), 2);
redis.disconnect(); await server.stop();
