/**
 * `npm test`: runs every package's tests through turbo with a PostgreSQL and a Redis to test
 * against. When DATABASE_URL / REDIS_URL are set (CI sets them) those are used; otherwise this
 * script starts throwaway servers on loopback ports and stops them afterwards. Without the server
 * binaries the suites that need them skip with a visible reason.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  postgresAvailable,
  redisAvailable,
  startPostgres,
  startRedis,
  type RunningService,
} from '../packages/testkit/src/services/index.js';

const started: RunningService[] = [];
const env = { ...process.env };

function tryInstallRedis(): void {
  // A fresh Debian machine has no redis-server; as root we can install it (as .ci/run does).
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return;
  console.log('[test] redis-server not found: installing it with apt-get');
  spawnSync('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq redis-server'], { stdio: 'inherit' });
}

async function main(): Promise<number> {
  if (env.DATABASE_URL === undefined) {
    if (postgresAvailable()) {
      const postgres = await startPostgres();
      started.push(postgres);
      env.DATABASE_URL = postgres.url;
      console.log(`[test] started PostgreSQL at ${postgres.url}`);
    } else {
      console.log('[test] PostgreSQL binaries (initdb, pg_ctl) not found: storage suites run on PGlite only');
    }
  }
  if (env.REDIS_URL === undefined) {
    if (!redisAvailable()) tryInstallRedis();
    if (redisAvailable()) {
      const redis = await startRedis();
      started.push(redis);
      env.REDIS_URL = redis.url;
      console.log(`[test] started Redis at ${redis.url}`);
    } else {
      console.log('[test] redis-server not available: Redis suites will skip');
    }
  }
  const args = ['turbo', 'run', 'test', '--concurrency=1', ...process.argv.slice(2)];
  const child = spawn('npx', args, { stdio: 'inherit', env });
  return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
}

let exitCode = 1;
try {
  exitCode = await main();
} finally {
  for (const service of started) await service.stop().catch(() => undefined);
}
process.exit(exitCode);
