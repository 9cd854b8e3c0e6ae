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
