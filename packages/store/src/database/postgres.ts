import type { Pool, PoolClient } from 'pg';
import type { Database, Queryable, QueryResult } from './types.js';

function wrap(target: Pool | PoolClient): Queryable {
  return {
    async query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
      const result = await target.query(sql, params as unknown[]);
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? result.rows.length };
    },
    async exec(sql: string): Promise<void> {
      // Without parameters node-postgres uses the simple protocol, which allows several statements.
      await target.query(sql);
    },
  };
}

export interface PostgresOptions {
  maxConnections?: number;
}

export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<Database> {
  const { default: pg } = await import('pg');
  // bigint (int8) columns such as outbox sequence numbers fit in a JS number for our ranges.
  pg.types.setTypeParser(20, (value: string) => Number(value));
  const pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 10 });
  // An idle client that loses its connection emits 'error' on the pool; without a listener that
  // would crash the process. The next query gets a fresh connection.
  pool.on('error', () => undefined);
  await pool.query('select 1');
  const base = wrap(pool);
  return {
    driver: 'postgres',
    query: base.query,
    exec: base.exec,
    async transaction(work) {
      const client = await pool.connect();
      // A checked-out client that loses its connection (server restart, admin termination) emits
      // 'error' besides rejecting its query; the pool listens only to idle clients, and an unheard
      // 'error' event would crash the process. The failed query already carries the error.
      let connectionError: Error | undefined;
      const onError = (error: Error) => {
        connectionError = error;
      };
      client.on('error', onError);
      try {
        await client.query('BEGIN');
        const result = await work(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.off('error', onError);
        // A broken connection is destroyed by the pool instead of being handed to the next caller.
        client.release(connectionError);
      }
    },
    close: () => pool.end(),
  };
}
