/**
 * Every environment variable Herald reads, with its default and meaning. This table is the one
 * source for parsing, for `docs/configuration.md` and for the test that keeps both in sync.
 */
export interface VariableSpec {
  name: string;
  description: string;
  /** Shown in the docs; `undefined` means "unset". */
  default?: string;
}

export const VARIABLES: readonly VariableSpec[] = [
  { name: 'PORT', description: 'Port of the HTTP API.', default: '8080' },
  { name: 'HOST', description: 'Interface the HTTP API listens on.', default: '127.0.0.1' },
  {
    name: 'DATABASE_URL',
    description: '`postgres://…` for PostgreSQL, `pglite://PATH` for embedded PGlite at PATH, `pglite://memory` for in-memory.',
    default: 'pglite://./.herald/data',
  },
  { name: 'REDIS_URL', description: 'Redis used by the consumer examples and tests (the gateway does not need it).' },
  { name: 'LOG_LEVEL', description: 'pino log level: fatal, error, warn, info, debug, trace, silent.', default: 'info' },
  { name: 'HERALD_PROJECTS', description: 'Comma-separated project keys ensured at start.' },
  { name: 'HERALD_MODE', description: '`production` or `development` (development serves the GraphiQL page).', default: 'production' },
  { name: 'HERALD_BODY_LIMIT_BYTES', description: 'Largest accepted request body; larger bodies get 413.', default: '1048576' },
  { name: 'HERALD_TLS_CERT', description: 'Path to a PEM certificate; with HERALD_TLS_KEY the API serves HTTPS (TLS 1.2/1.3 only).' },
  { name: 'HERALD_TLS_KEY', description: 'Path to the PEM private key for HERALD_TLS_CERT.' },
  {
    name: 'HERALD_HTTP_PORT',
    description: 'With TLS on: a plain-HTTP port that answers every request 404 with an HTML body (§1.3).',
  },
];
