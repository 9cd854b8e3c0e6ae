import type { Pool, PoolClient } from 'pg';
import type { Database, Queryable, QueryOptions, QueryResult } from './types.js';

/**
 * Names of prepared statements, one per distinct text of this process. node-postgres prepares a
 * named statement on a connection the first time it runs there, and after that sends only Bind
 * and Execute. Bounded, as a guard: past the bound, texts run unnamed (parsed every time).
 */
class StatementNames {
  private readonly names = new Map<string, string>();
  constructor(private readonly max = 256) {}

  nameOf(sql: string): string | undefined {
    const known = this.names.get(sql);
    if (known !== undefined || this.names.size >= this.max) return known;
    const name = `herald_${this.names.size + 1}`;
    this.names.set(sql, name);
    return name;
  }
}

function wrap(target: Pool | PoolClient, statements: StatementNames): Queryable {
  return {
    async query<Row>(sql: string, params: readonly unknown[] = [], options?: QueryOptions): Promise<QueryResult<Row>> {
      const name = options?.prepare === true ? statements.nameOf(sql) : undefined;
      const values = params as unknown[];
      const result = await (name === undefined ? target.query(sql, values) : target.query({ name, text: sql, values }));
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
  const statements = new StatementNames();
  const base = wrap(pool, statements);
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
        const result = await work(wrap(client, statements));
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
