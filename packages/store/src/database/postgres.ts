import type { Pool, PoolClient, QueryConfig } from 'pg';
import { settlesWithin } from '@herald/model';
import { asUnavailable } from './connection-failure.js';
import { DatabaseUnavailableError, formatPostgresTarget, postgresTarget } from './target.js';
import { NOTIFY_OUTBOX_SQL, OutboxBell } from '../outbox/commit-bell.js';
import type { Database, Queryable, QueryOptions, QueryResult } from './types.js';

/**
 * Bounds of the PostgreSQL driver. A server that accepts TCP connections and never answers (a hung
 * server, a black-holed address, a proxy whose backend is gone) must not hang a process forever.
 */
export const POSTGRES_DEFAULTS = {
  /**
   * Establishing a connection (TCP, TLS, start-up and authentication), and waiting for a free
   * connection of the pool. A reachable server answers in milliseconds, a remote one with TLS and
   * SCRAM in well under a second; 10 s rides out a busy server without letting a start or a
   * request wait on a dead one. DATABASE_URL's `connect_timeout` (seconds, as in libpq) overrides it.
   */
  connectTimeoutMs: 10_000,
  /**
   * Client-side bound of one statement (node-postgres `query_timeout`): the statement fails and its
   * connection is discarded. It frees connections whose server or network went away without a
   * word, so the process recovers once the database is back; it is not meant to bound slow
   * queries. Some statements legitimately run for minutes on large tables (the hourly message purge
   * and the removal of a deleted subscription's pending deliveries are single statements), and a
   * bound they hit would fail them forever, so it is generous. Migration scripts are exempt.
   * Readiness (`/readyz`, 2 s) and the worker's `/healthz` (HERALD_DELIVERY_HEALTH_TIMEOUT_MS) detect
   * an unresponsive database much sooner. DATABASE_URL's `query_timeout` (ms) overrides it;
   * `statement_timeout` (ms) there sets PostgreSQL's own bound, which Herald leaves to the server.
   */
  queryTimeoutMs: 300_000,
  /** TCP keep-alive probes on idle connections, so that a vanished peer is noticed eventually. */
  keepAliveInitialDelayMs: 10_000,
  /**
   * Connections of the pool: more clients than this queue for one. DATABASE_URL's `pool_size`
   * overrides it (each gateway and worker process opens its own pool: mind the server's
   * max_connections).
   */
  maxConnections: 10,
} as const;

/** setTimeout's largest delay: "no bound" for node-postgres, whose 0 means "the pool's default". */
const UNBOUNDED_MS = 2 ** 31 - 1;

/** node-postgres reads a per-statement `query_timeout`, which its types do not declare. */
type TimedQueryConfig = QueryConfig & { query_timeout?: number };

/** The error node-postgres rejects a statement with when its `query_timeout` elapses (also as a cause). */
function isQueryTimeout(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return isQueryTimeout(error.cause);
  return error instanceof Error && error.message === 'Query read timeout';
}

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

/**
 * `onTimeout` hears of a statement whose `query_timeout` elapsed: its connection still waits for the
 * answer and must not run anything else (a transaction discards it). A statement that could not
 * reach the server fails with DatabaseUnavailableError (connection-failure.ts).
 */
function wrap(target: Pool | PoolClient, server: string, statements: StatementNames, onTimeout?: (error: Error) => void, onAppended?: () => void): Queryable {
  const run = async (config: TimedQueryConfig) => {
    try {
      return await target.query(config);
    } catch (error) {
      if (onTimeout !== undefined && isQueryTimeout(error)) onTimeout(error as Error);
      throw asUnavailable(error, server);
    }
  };
  return {
    async query<Row>(sql: string, params: readonly unknown[] = [], options?: QueryOptions): Promise<QueryResult<Row>> {
      const name = options?.prepare === true ? statements.nameOf(sql) : undefined;
      const config: TimedQueryConfig = { text: sql, values: params as unknown[] };
      if (name !== undefined) config.name = name;
      if (options?.timeoutMs !== undefined) config.query_timeout = Math.min(Math.max(1, options.timeoutMs), UNBOUNDED_MS);
      const result = await run(config);
      if (options?.appendsOutbox === true) onAppended?.();
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? result.rows.length };
    },
    async exec(sql: string): Promise<void> {
      // Without parameters node-postgres uses the simple protocol, which allows several statements.
      // Migration scripts (index builds on large tables) may take as long as they take.
      await run({ text: sql, query_timeout: UNBOUNDED_MS });
    },
  };
}

export interface PostgresOptions {
  /** Default POSTGRES_DEFAULTS.maxConnections; DATABASE_URL's `pool_size` wins. */
  maxConnections?: number;
  /** Default POSTGRES_DEFAULTS.connectTimeoutMs; DATABASE_URL's `connect_timeout` wins. */
  connectTimeoutMs?: number;
  /** Default POSTGRES_DEFAULTS.queryTimeoutMs; DATABASE_URL's `query_timeout` wins. */
  queryTimeoutMs?: number;
}

/** libpq's `connect_timeout` parameter (seconds) of a URL, in milliseconds. */
function urlConnectTimeoutMs(url: string): number | undefined {
  let raw: string | null;
  try {
    raw = new URL(url).searchParams.get('connect_timeout');
  } catch {
    return undefined;
  }
  if (raw === null || !/^\d+$/.test(raw) || Number(raw) === 0) return undefined;
  return Number(raw) * 1_000;
}

/** DATABASE_URL's `pool_size` parameter (a positive integer), if any; anything else is a configuration error. */
export function urlPoolSize(url: string): number | undefined {
  let raw: string | null;
  try {
    raw = new URL(url).searchParams.get('pool_size');
  } catch {
    return undefined;
  }
  if (raw === null) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 1_000) throw new Error(`DATABASE_URL pool_size must be an integer from 1 to 1000 (got "${raw}")`);
  return Number(raw);
}

export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<Database> {
  const { default: pg } = await import('pg');
  // bigint (int8) columns such as outbox sequence numbers fit in a JS number for our ranges.
  pg.types.setTypeParser(20, (value: string) => Number(value));
  const connectTimeoutMs = urlConnectTimeoutMs(url) ?? options.connectTimeoutMs ?? POSTGRES_DEFAULTS.connectTimeoutMs;
  const pool = new pg.Pool({
    connectionString: url,
    max: urlPoolSize(url) ?? options.maxConnections ?? POSTGRES_DEFAULTS.maxConnections,
    connectionTimeoutMillis: connectTimeoutMs,
    // Parameters of the connection string (`query_timeout`, `statement_timeout`) take precedence.
    query_timeout: options.queryTimeoutMs ?? POSTGRES_DEFAULTS.queryTimeoutMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: POSTGRES_DEFAULTS.keepAliveInitialDelayMs,
  });
  // An idle client that loses its connection emits 'error' on the pool; without a listener that
  // would crash the process. The next query gets a fresh connection.
  pool.on('error', () => undefined);
  // The first round trip is bounded as a whole: connecting, and the answer to the statement.
  const target = formatPostgresTarget(postgresTarget(url));
  const server = `PostgreSQL at ${target}`;
  const started = performance.now();
  try {
    await pool.query({ text: 'select 1', query_timeout: connectTimeoutMs } as TimedQueryConfig);
  } catch (error) {
    await settlesWithin(pool.end(), 1_000);
    const cause = error instanceof Error ? error.message : String(error);
    const timedOut = isQueryTimeout(error) || cause === 'Connection terminated due to connection timeout' || performance.now() - started >= connectTimeoutMs;
    throw new DatabaseUnavailableError(
      timedOut
        ? `PostgreSQL at ${target} did not answer within ${connectTimeoutMs / 1_000} s (${cause})`
        : `could not connect to PostgreSQL at ${target}: ${cause}`,
      { cause: error },
    );
  }
  const statements = new StatementNames();
  const bell = new OutboxBell(async () => {
    await pool.query(NOTIFY_OUTBOX_SQL);
  });
  const base = wrap(pool, server, statements, undefined, () => bell.ring());
  return {
    driver: 'postgres',
    query: base.query,
    exec: base.exec,
    outboxCommits: bell,
    async transaction(work) {
      const client = await pool.connect().catch((error: unknown) => {
        throw asUnavailable(error, server);
      });
      // A checked-out client that loses its connection (server restart, admin termination) emits
      // 'error' besides rejecting its query; the pool listens only to idle clients, and an unheard
      // 'error' event would crash the process. The failed query already carries the error.
      let connectionError: Error | undefined;
      const onError = (error: Error) => {
        connectionError = error;
      };
      client.on('error', onError);
      let appended = false;
      try {
        await client.query('BEGIN');
        const result = await work(wrap(client, server, statements, onError, () => (appended = true)));
        await client.query('COMMIT');
        if (appended) bell.ring();
        return result;
      } catch (error) {
        if (isQueryTimeout(error)) connectionError ??= error as Error;
        // After a statement timed out the connection still waits for its answer: discarding it
        // rolls the transaction back on the server. Otherwise ROLLBACK, briefly bounded (it is
        // instant on a server that answers); a connection that cannot roll back is discarded too.
        if (connectionError === undefined) {
          await client
            .query({ text: 'ROLLBACK', query_timeout: connectTimeoutMs } as TimedQueryConfig)
            .catch((rollbackError: unknown) => onError(rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError))));
        }
        // BEGIN or COMMIT may have failed on a lost connection too. A COMMIT whose answer was
        // lost leaves the outcome unknown, as any 5xx does (the reference's GeneralError says so);
        // the transaction is still all or nothing.
        throw asUnavailable(error, server);
      } finally {
        client.off('error', onError);
        // A broken connection is destroyed by the pool instead of being handed to the next caller.
        client.release(connectionError);
      }
    },
    close: () => pool.end(),
  };
}
