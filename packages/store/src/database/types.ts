import type { OutboxCommits } from '../outbox/commit-bell.js';

export interface QueryOptions {
  /**
   * A hot statement with a fixed text (never SQL built from request input: the number of distinct
   * texts must stay small). The PostgreSQL driver prepares it once per connection and then only
   * binds and executes it, skipping parse, analysis and planning (half the server's CPU of a short
   * write). PGlite runs it as any other statement.
   */
  prepare?: boolean;
  /**
   * Fails the statement when no answer came within this many milliseconds (PostgreSQL: the
   * connection is then discarded; PGlite, in-process, ignores it). Without it the driver's default
   * applies (PostgreSQL: POSTGRES_DEFAULTS.queryTimeoutMs). For probes such as `/readyz`.
   */
  timeoutMs?: number;
  /**
   * The statement appends outbox rows: once it has committed (on its own, or with the transaction
   * it runs in), the database's `outboxCommits` rings (outbox/commit-bell.ts).
   */
  appendsOutbox?: boolean;
}

/** The part of a connection that runs statements; a transaction hands one of these to its callback. */
export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<Row>>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface QueryResult<Row> {
  rows: Row[];
  /** Rows changed by an INSERT, UPDATE or DELETE; rows returned by a SELECT (as `pg` counts them). */
  rowCount: number;
}

export type DatabaseDriver = 'pglite' | 'postgres';

/**
 * One interface over both drivers. Everything above the store talks to this, never to `pg` or
 * PGlite directly, so the same migrations and the same storage suite run on both.
 */
export interface Database extends Queryable {
  readonly driver: DatabaseDriver;
  /** Runs `work` in one transaction: committed if it resolves, rolled back if it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Rings after each commit that appended outbox rows; a wrapper without it leaves the wake-ups to polling. */
  readonly outboxCommits?: OutboxCommits;
  close(): Promise<void>;
}

/** A database error with the PostgreSQL SQLSTATE, normalised across drivers. */
export function sqlState(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

export const UNIQUE_VIOLATION = '23505';
