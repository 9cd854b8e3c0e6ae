/**
 * What a DATABASE_URL points at, for log lines and error messages: host, port, database and user of
 * a PostgreSQL URL, never its password or parameters.
 */
export interface PostgresTarget {
  host: string;
  port: number;
  database: string;
  user: string | undefined;
}

/** The parts of a `postgres://` URL a log line may show; `undefined` when the URL does not parse. */
export function postgresTarget(url: string): PostgresTarget | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  // `postgres:///db?host=/var/run/postgresql` (a Unix socket) names its host as a parameter.
  const host = parsed.searchParams.get('host') ?? (decodeURIComponent(parsed.hostname) || 'localhost');
  const port = Number(parsed.searchParams.get('port') ?? (parsed.port || 5432));
  const user = parsed.username === '' ? undefined : decodeURIComponent(parsed.username);
  const database = decodeURIComponent(parsed.pathname.slice(1)) || user || 'postgres';
  return { host, port, database, user };
}

/** `host:port/database`, or a neutral phrase when the URL does not parse. */
export function formatPostgresTarget(target: PostgresTarget | undefined): string {
  return target === undefined ? 'the PostgreSQL server' : `${target.host}:${target.port}/${target.database}`;
}

/**
 * A short description of DATABASE_URL for the "opening the database" log line: `postgres
 * host:port/database` (no password), `pglite memory` or `pglite PATH`.
 */
export function describeDatabaseUrl(url: string): string {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return `postgres ${formatPostgresTarget(postgresTarget(url))}`;
  if (url.startsWith('pglite://')) return `pglite ${url.slice('pglite://'.length)}`;
  return 'unknown';
}

/**
 * The database could not be reached when the process opened it: refused, unreachable, not answering
 * within the connection timeout, or refusing the credentials. The message names the server (never
 * the password) and the cause; `code` is the cause's (an SQLSTATE or a Node.js error code).
 */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
  declare readonly code?: string;

  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    const code = (options.cause as { code?: unknown } | null)?.code;
    if (typeof code === 'string') this.code = code;
  }
}
