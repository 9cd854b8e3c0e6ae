import { WORKER_VARIABLES } from '@herald/delivery';

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

const GATEWAY_VARIABLES: readonly VariableSpec[] = [
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
  {
    name: 'HERALD_TRUST_PROXY',
    description:
      'Proxies whose `X-Forwarded-For` is believed: `false`, `true` (any — only when nothing reaches Herald except through the proxy), a hop count, or addresses/CIDR ranges (`10.0.0.0/8,127.0.0.1`). Behind a load balancer, set it so token requests are limited per client address (§5.9).',
    default: 'false',
  },
  { name: 'HERALD_TLS_CERT', description: 'Path to a PEM certificate; with HERALD_TLS_KEY the API serves HTTPS (TLS 1.2/1.3 only).' },
  { name: 'HERALD_TLS_KEY', description: 'Path to the PEM private key for HERALD_TLS_CERT.' },
  {
    name: 'HERALD_HTTP_PORT',
    description: 'With TLS on: a plain-HTTP port that answers every request 404 with an HTML body (§1.3).',
  },
  {
    name: 'HERALD_BOOTSTRAP_CLIENT',
    description:
      '`id:secret` of the first API client, created or updated at start with `manage_project:{key}` for every project in HERALD_PROJECTS (§5.2).',
  },
  { name: 'HERALD_TOKEN_TTL_SECONDS', description: 'Lifetime of access tokens (`expires_in`, §5.3).', default: '172800' },
  {
    name: 'HERALD_REFRESH_TOKEN_CAP',
    description: 'Most refresh tokens kept; beyond it the least recently used are deleted (§8).',
    default: '10000000',
  },
  {
    name: 'HERALD_TOKEN_RATE_LIMIT',
    description: 'Token endpoint requests per minute: per API client once authenticated, and before that per remote address and claimed client id (so wrong secrets cannot lock a client out); more get 429 with Retry-After (§5.9). 0 = unlimited.',
    default: '600',
  },
  {
    name: 'HERALD_TOKEN_CACHE_SECONDS',
    description:
      'How long a validated access token is trusted from memory (never beyond its expiry). Revocation is immediate in the gateway process that revokes; other processes may accept the token this long. 0 = always ask the database.',
    default: '10',
  },
  {
    name: 'HERALD_SHUTDOWN_TIMEOUT_MS',
    description:
      'On SIGTERM or SIGINT, how long `herald serve` lets in-flight requests and the in-process delivery worker finish; then it closes the remaining connections. Keep it below the container stop timeout (Docker: 10 s) and above HERALD_DELIVERY_SHUTDOWN_GRACE_MS.',
    default: '8000',
  },
  {
    name: 'HERALD_DELIVERY',
    description: '`in-process`: `herald serve` also runs a delivery worker; `off`: only separate `herald-delivery` workers deliver.',
    default: 'in-process',
  },
  // The worker reads it too (to open destination secrets); the gateway also seals the external
  // OAuth authorization header with it, so its entry here says more than the worker's.
  {
    name: 'HERALD_SECRET_KEY',
    description:
      'Seals at rest, and opens, destination secrets and the external OAuth authorization header (AES-256-GCM; at least 16 characters). Unset: stored as given.',
  },
];

/**
 * The worker's own `/metrics` port (in-process, the API serves /metrics on its PORT). Its interface,
 * HERALD_DELIVERY_HOST, stays known (and unused in-process) so one environment file serves both.
 */
const WORKER_ONLY = new Set(['PORT']);

/**
 * The gateway's variables plus the delivery worker's (`herald serve` runs one in-process), each once.
 * `herald-delivery` reads `WORKER_VARIABLES` alone.
 */
export const VARIABLES: readonly VariableSpec[] = [
  ...GATEWAY_VARIABLES,
  ...WORKER_VARIABLES.filter(
    (variable) => !WORKER_ONLY.has(variable.name) && !GATEWAY_VARIABLES.some((known) => known.name === variable.name),
  ),
];
