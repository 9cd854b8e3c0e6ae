/**
 * Starts the servers tests and benchmarks need when the environment does not name them:
 * a throwaway PostgreSQL (when `initdb` exists) and a `redis-server` (installed with apt-get when
 * missing and running as root), both on loopback ports. Returns the environment to pass on.
 */
import { spawnSync } from 'node:child_process';
import { postgresAvailable, redisAvailable, startPostgres, startRedis, type RunningService } from '../packages/testkit/src/services/index.js';

export interface Services {
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

function tryInstallRedis(log: (line: string) => void): void {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return;
  log('redis-server not found: installing it with apt-get');
  spawnSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server'], {
    stdio: 'inherit',
  });
}

export async function ensureServices(log: (line: string) => void): Promise<Services> {
  const env: NodeJS.ProcessEnv = { ...process.env, TURBO_TELEMETRY_DISABLED: '1' };
  const started: RunningService[] = [];
  if (env.DATABASE_URL === undefined) {
    if (postgresAvailable()) {
      const postgres = await startPostgres();
      started.push(postgres);
      env.DATABASE_URL = postgres.url;
      log(`started PostgreSQL at ${postgres.url}`);
    } else {
      log('PostgreSQL binaries (initdb, pg_ctl) not found: storage suites run on PGlite only');
    }
  }
  if (env.REDIS_URL === undefined) {
    if (!redisAvailable()) tryInstallRedis(log);
    if (redisAvailable()) {
      const redis = await startRedis();
      started.push(redis);
      env.REDIS_URL = redis.url;
      log(`started Redis at ${redis.url}`);
    } else {
      log('redis-server not available: Redis suites will skip');
    }
  }
  return {
    env,
    async stop() {
      for (const service of started) await service.stop().catch(() => undefined);
    },
  };
}
