/**
 * `/readyz` bounds its database check (docs/operations.md, "Health endpoints"): a database that
 * never answers gets a 503 within the bound, not a request that hangs. End to end, through a
 * frozen TCP proxy in front of PostgreSQL: test/ops/unresponsive-database-health.test.ts.
 */
import type { Database } from '@herald/store';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { installHealthRoutes } from '../../src/http/health.js';

function databaseAnswering(query: () => Promise<unknown>): Database {
  return {
    driver: 'postgres',
    query: query as Database['query'],
    exec: async () => undefined,
    transaction: async () => {
      throw new Error('not used');
    },
    close: async () => undefined,
  };
}

async function readyz(db: Database, readyTimeoutMs?: number) {
  const app = Fastify();
  installHealthRoutes(app, db, readyTimeoutMs === undefined ? {} : { readyTimeoutMs });
  try {
    const started = performance.now();
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    return { status: response.statusCode, body: response.json() as unknown, ms: performance.now() - started };
  } finally {
    await app.close();
  }
}

describe('GET /readyz', () => {
  it('answers 200 when the database answers', async () => {
    const result = await readyz(databaseAnswering(async () => ({ rows: [{ '?column?': 1 }], rowCount: 1 })));
    expect(result).toMatchObject({ status: 200, body: { status: 'ready' } });
  });

  it('answers 503 when the database fails', async () => {
    const result = await readyz(databaseAnswering(() => Promise.reject(new Error('connection refused'))));
    expect(result).toMatchObject({ status: 503, body: { status: 'database unreachable' } });
  });

  it('answers 503 within its bound when the database never answers, and bounds the statement too', async () => {
    const options: unknown[] = [];
    const hanging = databaseAnswering(((_sql: string, _params: unknown[], queryOptions: unknown) => {
      options.push(queryOptions);
      return new Promise(() => undefined);
    }) as never);
    const result = await readyz(hanging, 200);
    expect(result).toMatchObject({ status: 503, body: { status: 'database unreachable' } });
    expect(result.ms).toBeLessThan(5_000);
    expect(options).toEqual([{ timeoutMs: 200 }]);
  });
});
