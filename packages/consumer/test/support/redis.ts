import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { redisAvailable, startRedis } from '@herald/testkit';

export interface TestRedis {
  readonly url: string;
  stop(): Promise<void>;
}

/** Why the Redis variants of the tests cannot run here, or undefined if they can. */
export function redisSkipReason(): string | undefined {
  if (process.env.REDIS_URL) return undefined;
  return redisAvailable() ? undefined : 'no REDIS_URL and no redis-server on PATH (apt-get install -y redis-server)';
}

/** `REDIS_URL` if set, else a throwaway redis-server. */
export async function startTestRedis(): Promise<TestRedis> {
  const url = process.env.REDIS_URL;
  if (url) return { url, stop: async () => undefined };
  return startRedis();
}

/**
 * A Redis client for the tests of the calling `describe`: started (`startTestRedis`) before them,
 * disconnected and stopped after them. Read it inside tests and hooks.
 */
export function redisForSuite(): () => Redis {
  let server: TestRedis | undefined;
  let redis: Redis | undefined;
  beforeAll(async () => {
    server = await startTestRedis();
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.stop();
  });
  return () => {
    if (redis === undefined) throw new Error('redisForSuite() is read before its beforeAll ran');
    return redis;
  };
}
