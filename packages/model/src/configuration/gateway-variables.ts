/**
 * The variables `herald serve` reads for itself, and those both processes read alike. The delivery
 * worker's own are in delivery-variables.ts; table.ts joins them. Defaults and ranges are the
 * gateway's since issue 25; the meanings are documented in docs/configuration.md, generated from
 * these entries.
 */
import { accepted, custom, integer, oneOf, refused, text, type Parsed } from './rules.js';
import { defineVariable, optionalVariable, type HeraldProcess } from './variable.js';

const SERVE: readonly HeraldProcess[] = ['herald serve'];
const BOTH: readonly HeraldProcess[] = ['herald serve', 'herald-delivery'];

/** pino's levels, the values LOG_LEVEL accepts in every process. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The store's default (`DEFAULT_DATABASE_URL` of @herald/store; a test keeps them equal). */
const DEFAULT_DATABASE_URL = 'pglite://./.herald/data';
/** The secret box's minimum (`MIN_SECRET_KEY_LENGTH` of @herald/delivery; a test keeps them equal). */
const MIN_SECRET_KEY_LENGTH = 16;

const PROJECT_KEY = /^[a-z0-9][a-z0-9-]{1,35}$/;

/** `a,b , c`: project keys separated by commas; blanks between commas are ignored. */
function parseProjectKeys(list: string): Parsed<readonly string[]> {
  const keys = list
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
  const invalid = keys.find((key) => !PROJECT_KEY.test(key));
  return invalid === undefined ? accepted(Object.freeze(keys)) : refused(`"${invalid}" is not a project key`);
}

export interface BootstrapClient {
  readonly id: string;
  readonly secret: string;
}

const CLIENT_ID = /^[A-Za-z0-9_-]{2,64}$/;
const MIN_CLIENT_SECRET_LENGTH = 8;

/** `id:secret`; the secret may itself contain colons. A refusal never says which part failed how. */
function parseBootstrapClient(pair: string): Parsed<BootstrapClient> {
  const colon = pair.indexOf(':');
  const id = colon < 0 ? pair : pair.slice(0, colon);
  const secret = colon < 0 ? '' : pair.slice(colon + 1);
  return CLIENT_ID.test(id) && secret.length >= MIN_CLIENT_SECRET_LENGTH ? accepted({ id, secret }) : refused();
}

export const GATEWAY_VARIABLES = {
  apiPort: defineVariable({
    name: 'PORT',
    readBy: SERVE,
    description: 'Port of the HTTP API.',
    rule: integer(0, 65_535),
    fallback: 8080,
  }),
  apiHost: defineVariable({
    name: 'HOST',
    readBy: SERVE,
    description: 'Interface the HTTP API listens on.',
    rule: text(),
    fallback: '127.0.0.1',
  }),
  databaseUrl: defineVariable({
    name: 'DATABASE_URL',
    readBy: BOTH,
    description: '`postgres://…` for PostgreSQL (needed by separate workers), `pglite://PATH` for embedded PGlite at PATH, `pglite://memory` for in-memory.',
    rule: text({ accepts: 'a postgres://, postgresql:// or pglite:// URL' }),
    fallback: DEFAULT_DATABASE_URL,
    // It may hold a password.
    secret: true,
  }),
  logLevel: defineVariable({
    name: 'LOG_LEVEL',
    readBy: BOTH,
    description: 'pino log level.',
    rule: oneOf(LOG_LEVELS),
    fallback: 'info',
  }),
  projects: defineVariable({
    name: 'HERALD_PROJECTS',
    readBy: SERVE,
    description: 'Comma-separated project keys ensured at start.',
    rule: custom('project keys (2-36 lowercase letters, digits or -) separated by commas', parseProjectKeys, (keys) => keys.join(',')),
    fallback: Object.freeze([]) as readonly string[],
  }),
  mode: defineVariable({
    name: 'HERALD_MODE',
    readBy: SERVE,
    description: '`development` also serves the GraphiQL page.',
    rule: oneOf(['production', 'development']),
    fallback: 'production',
  }),
  bodyLimitBytes: defineVariable({
    name: 'HERALD_BODY_LIMIT_BYTES',
    readBy: SERVE,
    description: 'Largest accepted request body; larger bodies get 413.',
    rule: integer(1024, 64 * 1_048_576),
    fallback: 1_048_576,
  }),
  trustProxy: defineVariable({
    name: 'HERALD_TRUST_PROXY',
    readBy: SERVE,
    description:
      'Proxies whose `X-Forwarded-For` is believed: `false`, `true` (any — only when nothing reaches Herald except through the proxy), a hop count, or addresses/CIDR ranges (`10.0.0.0/8,127.0.0.1`). Behind a load balancer, set it so token requests are limited per client address (§5.9).',
    // The addresses are checked by the gateway, which has node:net's isIP.
    rule: text({ accepts: 'true, false, a hop count from 1 to 100, or IP addresses and CIDR ranges separated by commas' }),
    fallback: 'false',
  }),
  tlsCert: optionalVariable({
    name: 'HERALD_TLS_CERT',
    readBy: SERVE,
    description: 'Path to a PEM certificate; with HERALD_TLS_KEY the API serves HTTPS (TLS 1.2/1.3 only).',
    rule: text({ accepts: 'a file path' }),
  }),
  tlsKey: optionalVariable({
    name: 'HERALD_TLS_KEY',
    readBy: SERVE,
    description: 'Path to the PEM private key for HERALD_TLS_CERT.',
    rule: text({ accepts: 'a file path' }),
  }),
  plainHttpPort: optionalVariable({
    name: 'HERALD_HTTP_PORT',
    readBy: SERVE,
    description: 'With TLS on: a plain-HTTP port that answers every request 404 with an HTML body (§1.3).',
    rule: integer(0, 65_535),
  }),
  metricsPort: optionalVariable({
    name: 'HERALD_METRICS_PORT',
    readBy: SERVE,
    description:
      'Serves `GET /metrics` on its own plain-HTTP listener at HOST:this port, and no longer on the API port (where it then answers 404). Unset: `/metrics` is on the API port.',
    rule: integer(0, 65_535),
  }),
  bootstrapClient: optionalVariable({
    name: 'HERALD_BOOTSTRAP_CLIENT',
    readBy: SERVE,
    description: '`id:secret` of the first API client, created or updated at start with `manage_project:{key}` for every project in HERALD_PROJECTS (§5.2).',
    rule: custom(
      `"id:secret" (id of 2-64 letters, digits, _ or -; secret of ${MIN_CLIENT_SECRET_LENGTH}+ characters)`,
      parseBootstrapClient,
      (client) => `${client.id}:…`,
    ),
    secret: true,
  }),
  accessTokenTtlSeconds: defineVariable({
    name: 'HERALD_TOKEN_TTL_SECONDS',
    readBy: SERVE,
    description: 'Lifetime of access tokens (`expires_in`, §5.3).',
    rule: integer(60, 31_536_000),
    fallback: 172_800,
  }),
  refreshTokenCap: defineVariable({
    name: 'HERALD_REFRESH_TOKEN_CAP',
    readBy: SERVE,
    description: 'Most refresh tokens kept; beyond it the least recently used are deleted (§8).',
    rule: integer(1, 1_000_000_000),
    fallback: 10_000_000,
  }),
  tokenRateLimitPerMinute: defineVariable({
    name: 'HERALD_TOKEN_RATE_LIMIT',
    readBy: SERVE,
    description:
      'Token endpoint requests per minute: per API client once authenticated, and before that per remote address and claimed client id (so wrong secrets cannot lock a client out); more get 429 with Retry-After (§5.9). 0 = unlimited.',
    rule: integer(0, 1_000_000),
    fallback: 600,
  }),
  tokenCacheSeconds: defineVariable({
    name: 'HERALD_TOKEN_CACHE_SECONDS',
    readBy: SERVE,
    description:
      'How long a validated access token is trusted from memory (never beyond its expiry). Revocation is immediate in the gateway process that revokes; other processes may accept the token this long. 0 = always ask the database.',
    rule: integer(0, 3600),
    fallback: 10,
  }),
  shutdownTimeoutMs: defineVariable({
    name: 'HERALD_SHUTDOWN_TIMEOUT_MS',
    readBy: SERVE,
    description:
      'On SIGTERM or SIGINT, how long `herald serve` lets in-flight requests and the in-process delivery worker finish (or a start-up in progress complete); then it closes the remaining connections. Keep it below the container stop timeout (Docker: 10 s) and above HERALD_DELIVERY_SHUTDOWN_GRACE_MS.',
    rule: integer(0, 600_000),
    fallback: 8_000,
  }),
  deliveryMode: defineVariable({
    name: 'HERALD_DELIVERY',
    readBy: SERVE,
    description: '`in-process`: `herald serve` also runs a delivery worker; `off`: only separate `herald-delivery` workers deliver.',
    rule: oneOf(['in-process', 'off']),
    fallback: 'in-process',
  }),
  secretKey: optionalVariable({
    name: 'HERALD_SECRET_KEY',
    readBy: BOTH,
    description:
      'Seals at rest (gateway) and opens (both) destination secrets and the external OAuth authorization header (AES-256-GCM). Every process needs the same key. Unset: stored as given.',
    rule: text({ minLength: MIN_SECRET_KEY_LENGTH }),
    secret: true,
  }),
} as const;
