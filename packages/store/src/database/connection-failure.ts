import { DatabaseUnavailableError } from './target.js';
import { sqlState } from './types.js';

/**
 * Node.js errors of a connection that could not be made or was lost: the server is down or
 * restarting, the network or a proxy in between is gone.
 */
const CONNECTION_ERRNOS: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  // A Unix-socket DATABASE_URL whose socket file is gone while the server is stopped.
  'ENOENT',
]);

/**
 * SQLSTATEs of a database that is not serving: class 08 (connection exception), 57P01-57P03
 * (terminated by a shutdown or crash, starting up or shutting down), class 53 (insufficient
 * resources: disk full, out of memory, too many connections) and class 58 (system error: its files
 * cannot be read or written, e.g. PGlite's data directory gone or its disk failing).
 */
const UNAVAILABLE_STATES = /^(08...|57P0[123]|53...|58...)$/;

/**
 * node-postgres reports a lost or unobtainable connection with these messages and no code (its
 * client.js and pg-pool); there is nothing else to tell them by.
 */
const DRIVER_MESSAGES: ReadonlySet<string> = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'timeout expired',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
]);

/** Whether a driver error means the database cannot be reached or cannot work, not that a statement failed. */
export function isConnectionFailure(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  const state = sqlState(error);
  if (state !== undefined && (CONNECTION_ERRNOS.has(state) || UNAVAILABLE_STATES.test(state))) return true;
  // An AggregateError of connection attempts (several addresses of one host name) carries no code.
  if (error instanceof AggregateError) return error.errors.length > 0 && error.errors.every(isConnectionFailure);
  return error instanceof Error && DRIVER_MESSAGES.has(error.message);
}

/**
 * The error a caller sees (`database` names it: "PostgreSQL at host:port/db", "PGlite at DIR"): a
 * connection or storage failure becomes a DatabaseUnavailableError (keeping the
 * driver's error as `cause`, and its code), so that the layers above answer "retry later" without
 * knowing the driver; any other error is the caller's own (a constraint, a syntax error) as it is.
 */
export function asUnavailable(error: unknown, database: string): unknown {
  if (error instanceof DatabaseUnavailableError || !isConnectionFailure(error)) return error;
  const cause = error instanceof Error ? error.message : String(error);
  return new DatabaseUnavailableError(`${database} is unavailable: ${cause}`, { cause: error });
}
