/**
 * A test gateway whose database lets a test hold one query (inside or outside a transaction) at a
 * chosen point, so that races between two requests replay deterministically.
 */
import type { Clock } from '@herald/model';
import { createIsolatedDatabase } from '@herald/testkit';
import { openDatabase, ProjectStore, type Database, type Queryable } from '@herald/store';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildGateway } from '../../src/app.js';
import { defaultConfig, type HeraldConfig } from '../../src/config/config.js';
import { TEST_BOOTSTRAP_CLIENT } from './gateway.js';

export interface Gate {
  /** Resolves when a matching query is being held. */
  reached: Promise<void>;
  /** Lets the held query (and its caller) continue. */
  open(): void;
}

type Matcher = (sql: string, params: readonly unknown[], inTransaction: boolean) => boolean;

export interface GatedGateway {
  app: FastifyInstance;
  /** The database itself (queries here are never held). */
  db: Database;
  bootstrapClient: { id: string; secret: string };
  /** Holds the NEXT matching query after it ran, before its caller sees the result. */
  holdAfter(matches: Matcher): Gate;
  /** Holds the NEXT matching query before it runs. */
  holdBefore(matches: Matcher): Gate;
  /** Fails the NEXT matching query, without running it, as a database error would. */
  failNext(matches: Matcher): void;
  /**
   * Statements and transactions handed to the database that have not finished: a statement held
   * outside a transaction does not count, a transaction holding one does. On PGlite, which runs
   * one at a time, more than one means some wait behind a held transaction.
   */
  inFlight(): number;
  close(): Promise<void>;
}

export interface GatedGatewayOptions {
  /** A PostgreSQL server URL (a fresh database is created on it); default in-memory PGlite. */
  serverUrl?: string;
  oauth?: Partial<HeraldConfig['oauth']>;
  clock?: Clock;
  /** A pino logger for the gateway; default none. */
  logger?: Logger;
}

export async function startGatedGateway(projects: readonly string[], options: GatedGatewayOptions = {}): Promise<GatedGateway> {
  const isolated = await createIsolatedDatabase(options.serverUrl ?? 'pglite://memory');
  const real = await openDatabase(isolated.url);
  type Pending = { matches: Matcher; reached: () => void; gate: Promise<void>; before: boolean };
  let pending: Pending | undefined;
  let failing: Matcher | undefined;
  let inFlight = 0;
  const counted = async <R>(call: () => Promise<R>): Promise<R> => {
    inFlight++;
    try {
      return await call();
    } finally {
      inFlight--;
    }
  };
  const take = (sql: string, params: readonly unknown[], inTransaction: boolean, before: boolean): Pending | undefined => {
    const hold = pending;
    if (hold === undefined || hold.before !== before || !hold.matches(sql, params, inTransaction)) return undefined;
    pending = undefined;
    hold.reached();
    return hold;
  };
  const gated = (target: Queryable, inTransaction: boolean) => async (sql: string, params?: readonly unknown[], queryOptions?: unknown) => {
    if (failing?.(sql, params ?? [], inTransaction) === true) {
      failing = undefined;
      throw new Error(`gated database: failed on purpose: ${sql.slice(0, 80)}`);
    }
    const early = take(sql, params ?? [], inTransaction, true);
    if (early !== undefined) await early.gate;
    const run = () => (target.query as (...args: unknown[]) => Promise<unknown>).call(target, sql, params, queryOptions);
    const result = inTransaction ? await run() : await counted(run);
    const late = take(sql, params ?? [], inTransaction, false);
    if (late !== undefined) await late.gate;
    return result;
  };
  const wrap = <T extends object>(target: T, inTransaction: boolean): T =>
    new Proxy(target, {
      get(object, property) {
        if (property === 'query') return gated(object as unknown as Queryable, inTransaction);
        if (property === 'transaction') {
          return <R>(work: (tx: Queryable) => Promise<R>) => counted(() => (object as unknown as Database).transaction((tx) => work(wrap(tx, true))));
        }
        const value = Reflect.get(object, property, object) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
      },
    });
  const db = wrap(real, false);
  for (const key of projects) await new ProjectStore(real, options.clock).ensure(key);
  const base = defaultConfig();
  const config: HeraldConfig = Object.freeze({
    ...base,
    projects,
    oauth: { ...base.oauth, bootstrapClient: { ...TEST_BOOTSTRAP_CLIENT }, tokenRateLimitPerMinute: 0, ...options.oauth },
  });
  const gateway = await buildGateway(config, { db, logger: options.logger ?? false, ...(options.clock === undefined ? {} : { clock: options.clock }) });
  const hold = (matches: Matcher, before: boolean): Gate => {
    let reached!: () => void;
    let open!: () => void;
    const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
    const gate = new Promise<void>((resolve) => (open = resolve));
    pending = { matches, reached, gate, before };
    return { reached: reachedPromise, open };
  };
  return {
    app: gateway.app,
    db: real,
    bootstrapClient: { ...TEST_BOOTSTRAP_CLIENT },
    holdAfter: (matches) => hold(matches, false),
    holdBefore: (matches) => hold(matches, true),
    failNext: (matches) => {
      failing = matches;
    },
    inFlight: () => inFlight,
    async close() {
      await gateway.app.close();
      await real.close();
      await isolated.drop();
    },
  };
}
