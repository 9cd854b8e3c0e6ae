import type { Pool, PoolClient, QueryConfig, QueryResult as PgQueryResult } from 'pg';
import { settlesWithin } from '@herald/model';
import { asUnavailable } from './connection-failure.js';
import { DatabaseUnavailableError, formatPostgresTarget, postgresTarget } from './target.js';
import { NOTIFY_OUTBOX_SQL, OutboxBell } from '../outbox/commit-bell.js';
import { StatementDeadlines } from './statement-deadlines.js';
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

/** setTimeout's largest delay: a statement bounded by it is not watched at all. */
const UNBOUNDED_MS = 2 ** 31 - 1;

/** node-postgres reads a per-statement `query_timeout`, which its types do not declare. */
type TimedQueryConfig = QueryConfig & { query_timeout?: number };

/** What a statement past its bound fails with: node-postgres' own message for its `query_timeout`. */
const QUERY_TIMEOUT_MESSAGE = 'Query read timeout';

/** The error a statement past its bound is rejected with (also as a cause). */
function isQueryTimeout(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return isQueryTimeout(error.cause);
  return error instanceof Error && error.message === QUERY_TIMEOUT_MESSAGE;
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
 * One statement on `client`, failed at once when `timeoutMs` pass first (StatementDeadlines, not a
 * timer per statement): the connection still waits for the answer, so it is closed (node-postgres
 * destroys the socket of a client ended with a statement in flight) and must not be reused.
 *
 * node-postgres is called in its callback form. Its promise form (like its `query_timeout` timer)
 * kept every result alive long enough to be promoted to V8's old generation: with a page of
 * products per request, each young-generation collection copied ~5 MB and paused 20–30 ms
 * instead of under 1 ms (measured side by side on the same statements).
 */
function bounded(client: PoolClient, config: QueryConfig, timeoutMs: number, deadlines: StatementDeadlines): Promise<PgQueryResult> {
  return new Promise((resolve, reject) => {
    const deadline =
      timeoutMs >= UNBOUNDED_MS
        ? undefined
        : deadlines.watch(timeoutMs, () => {
            reject(new Error(QUERY_TIMEOUT_MESSAGE));
            client.end().catch(() => undefined);
          });
    client.query(config, (error: Error | undefined, result: PgQueryResult) => {
      if (deadline !== undefined) deadlines.clear(deadline);
      if (error) reject(error);
      else resolve(result);
    });
  });
}

/**
 * One statement on a connection of the pool, as `pool.query` runs it (which cannot be bounded
 * without a timer per statement): a connection that fails while checked out emits 'error', heard
 * here (unheard it would crash the process), and a statement that failed discards its connection.
 */
async function onPool(pool: Pool, config: QueryConfig, timeoutMs: number, deadlines: StatementDeadlines): Promise<PgQueryResult> {
  const client = await pool.connect();
  let failure: Error | undefined;
  const onError = (error: Error) => {
    failure ??= error;
  };
  client.on('error', onError);
  try {
    return await bounded(client, config, timeoutMs, deadlines);
  } catch (error) {
    failure ??= error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.off('error', onError);
    client.release(failure);
  }
}

/** Runs one statement within a bound (ms); rejects as node-postgres does. */
type StatementRunner = (config: QueryConfig, timeoutMs: number) => Promise<PgQueryResult>;

/**
 * The Queryable of a runner (the pool, or a transaction's connection). `onTimeout` hears of a
 * statement past its bound: its connection is closed and must not run anything else (a transaction
 * discards it). A statement that could not reach the server fails with DatabaseUnavailableError
 * (connection-failure.ts).
 */
function wrap(
  runner: StatementRunner,
  server: string,
  statements: StatementNames,
  defaultTimeoutMs: number,
  onTimeout?: (error: Error) => void,
  onAppended?: () => void,
): Queryable {
  const run = async (config: QueryConfig, timeoutMs: number) => {
    try {
      return await runner(config, timeoutMs);
    } catch (error) {
      if (onTimeout !== undefined && isQueryTimeout(error)) onTimeout(error as Error);
      throw asUnavailable(error, server);
    }
  };
  return {
    async query<Row>(sql: string, params: readonly unknown[] = [], options?: QueryOptions): Promise<QueryResult<Row>> {
      const name = options?.prepare === true ? statements.nameOf(sql) : undefined;
      const config: QueryConfig = { text: sql, values: params as unknown[] };
      if (name !== undefined) config.name = name;
      const timeoutMs = options?.timeoutMs === undefined ? defaultTimeoutMs : Math.min(Math.max(1, options.timeoutMs), UNBOUNDED_MS);
      const result = await run(config, timeoutMs);
      if (options?.appendsOutbox === true) onAppended?.();
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? result.rows.length };
    },
    async exec(sql: string): Promise<void> {
      // Without parameters node-postgres uses the simple protocol, which allows several statements.
      // Migration scripts (index builds on large tables) may take as long as they take.
      await run({ text: sql }, UNBOUNDED_MS);
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

/**
 * DATABASE_URL's `query_timeout` parameter (ms; 0: no bound), if any, and the URL without it: Herald
 * bounds statements itself (StatementDeadlines), and node-postgres would otherwise arm a timer of
 * its own per statement from it.
 */
export function urlQueryTimeout(url: string): { url: string; timeoutMs?: number } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url };
  }
  const raw = parsed.searchParams.get('query_timeout');
  if (raw === null) return { url };
  if (!/^\d+$/.test(raw)) throw new Error(`DATABASE_URL query_timeout must be a number of milliseconds (got "${raw}")`);
  parsed.searchParams.delete('query_timeout');
  return { url: parsed.toString(), timeoutMs: Number(raw) === 0 ? UNBOUNDED_MS : Math.min(Number(raw), UNBOUNDED_MS) };
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
  const fromUrl = urlQueryTimeout(url);
  const queryTimeoutMs = fromUrl.timeoutMs ?? options.queryTimeoutMs ?? POSTGRES_DEFAULTS.queryTimeoutMs;
  const pool = new pg.Pool({
    connectionString: fromUrl.url,
    max: urlPoolSize(url) ?? options.maxConnections ?? POSTGRES_DEFAULTS.maxConnections,
    connectionTimeoutMillis: connectTimeoutMs,
    // No pool-wide `query_timeout`: statements are bounded by StatementDeadlines. The connection
    // string's `statement_timeout` (PostgreSQL's own bound) passes through.
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
  const deadlines = new StatementDeadlines();
  const onAnyConnection: StatementRunner = (config, timeoutMs) => onPool(pool, config, timeoutMs, deadlines);
  const bell = new OutboxBell(async () => {
    await onAnyConnection({ text: NOTIFY_OUTBOX_SQL }, queryTimeoutMs);
  });
  const base = wrap(onAnyConnection, server, statements, queryTimeoutMs, undefined, () => bell.ring());
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
        const onThisConnection: StatementRunner = (config, timeoutMs) => bounded(client, config, timeoutMs, deadlines);
        await onThisConnection({ text: 'BEGIN' }, queryTimeoutMs);
        const result = await work(wrap(onThisConnection, server, statements, queryTimeoutMs, onError, () => (appended = true)));
        await onThisConnection({ text: 'COMMIT' }, queryTimeoutMs);
        if (appended) bell.ring();
        return result;
      } catch (error) {
        if (isQueryTimeout(error)) connectionError ??= error as Error;
        // After a statement timed out the connection still waits for its answer: discarding it
        // rolls the transaction back on the server. Otherwise ROLLBACK, briefly bounded (it is
        // instant on a server that answers); a connection that cannot roll back is discarded too.
        if (connectionError === undefined) {
          await bounded(client, { text: 'ROLLBACK' }, connectTimeoutMs, deadlines).catch((rollbackError: unknown) =>
            onError(rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError))),
          );
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
