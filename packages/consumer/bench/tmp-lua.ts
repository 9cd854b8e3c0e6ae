import { Redis } from 'ioredis';
import { startRedis } from '../../testkit/src/services/redis.js';
const server = await startRedis();
const redis = new Redis(server.url);
const N = 100_000, B = 100;
const keys = Array.from({ length: N }, (_, i) => `b:proj:business-unit:bu-${i % 20000}:m:${Math.floor(i / 20000) + 1}`);
async function cpu() { return Number((await redis.info('cpu')).match(/used_cpu_user:([\d.]+)/)![1]) + Number((await redis.info('cpu')).match(/used_cpu_sys:([\d.]+)/)![1]); }
async function trial(name: string, script: string, extraArgs: string[] = []) {
  const r0 = await cpu();
  for (let s = 0; s < N; s += B) await redis.eval(script, B, ...keys.slice(s, s + B), ...extraArgs);
  console.log(name.padEnd(30), ((((await cpu()) - r0) * 1e6) / N).toFixed(2), 'µs/item (redis cpu)');
}
await trial('empty loop', 'for i = 1, #KEYS do end return 0');
await trial('GET', "for i = 1, #KEYS do redis.call('GET', KEYS[i]) end return 0");
await trial('SET PX', "for i = 1, #KEYS do redis.call('SET', KEYS[i], 'p|1735689600000|host-1234-abcdef', 'PX', 90000) end return 0");
await trial('GET again (existing)', "for i = 1, #KEYS do redis.call('GET', KEYS[i]) end return 0");
await trial('HGET', "for i = 1, #KEYS do redis.call('HGET', KEYS[i] .. ':pos', 'm') end return 0");
await trial('HSET', "for i = 1, #KEYS do redis.call('HSET', KEYS[i] .. ':pos', 'm', '5') end return 0");
await trial('PEXPIRE', "for i = 1, #KEYS do redis.call('PEXPIRE', KEYS[i] .. ':pos', 604800000) end return 0");
await trial('ZADD GT', "for i = 1, #KEYS do redis.call('ZADD', KEYS[i] .. ':z', 'GT', 5, 'm') end return 0");
await trial('results table of strings', "local r = {} for i = 1, #KEYS do r[i] = 'claimed' end return r");
redis.disconnect(); await server.stop();
