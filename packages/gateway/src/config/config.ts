import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { LOG_LEVELS, parseWorkerConfig, WorkerConfigError, type WorkerConfig } from '@herald/delivery';
import { VARIABLES } from './variables.js';

export interface TlsConfig {
  cert: string;
  key: string;
  /** Plain-HTTP listener that answers 404 with HTML (§1.3, §7); undefined = none. */
  plainHttpPort: number | undefined;
}

/** The one validated, frozen configuration of a gateway process. */
export interface HeraldConfig {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  logLevel: string;
  projects: readonly string[];
  mode: 'production' | 'development';
  bodyLimitBytes: number;
  /**
   * Which proxies' `X-Forwarded-For` / `X-Forwarded-Proto` are believed (Fastify's `trustProxy`):
   * `false` = none, the socket's address is the client's; a number = that many hops; a list =
   * those addresses and CIDR ranges. The client address limits token requests per address (§5.9).
   */
  trustProxy: boolean | number | readonly string[];
  tls: TlsConfig | undefined;
  oauth: OAuthSettings;
  /**
   * On SIGTERM/SIGINT, the time in-flight requests and the in-process delivery worker get before
   * the remaining connections are destroyed; below Docker's 10 s stop timeout by default.
   */
  shutdownTimeoutMs: number;
  /** `in-process`: `herald serve` runs a delivery worker; `off`: separate workers deliver. */
  deliveryMode: 'in-process' | 'off';
  /** Delivery settings (shared with `herald-delivery`), also used for test notifications. */
  delivery: WorkerConfig;
}

/** The OAuth 2.0 token service (§5). */
export interface OAuthSettings {
  /** The first API client, ensured at start with `manage_project` on every configured project. */
  bootstrapClient: { id: string; secret: string } | undefined;
  /** `expires_in` of access tokens (§5.3 shows 172800, two days). */
  accessTokenTtlSeconds: number;
  /** §8: beyond this many refresh tokens the least recently used are deleted. */
  refreshTokenCap: number;
  /** Token requests per API client per minute (§5.9); 0 turns the limit off. */
  tokenRateLimitPerMinute: number;
  /** How long a validated access token is trusted from memory (never beyond its expiry); 0 = never. */
  tokenCacheSeconds: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const PROJECT_KEY = /^[a-z0-9][a-z0-9-]{1,35}$/;

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
  }
  return value;
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')}`);
  return raw as T;
}

/** Rejects HERALD_* variables nobody reads: a typo must not silently fall back to a default. */
function rejectUnknown(env: NodeJS.ProcessEnv): void {
  const known = new Set(VARIABLES.map((variable) => variable.name));
  const unknown = Object.keys(env).filter((name) => name.startsWith('HERALD_') && !known.has(name));
  if (unknown.length > 0) throw new ConfigError(`Unknown configuration variable(s): ${unknown.join(', ')}`);
}

function readTls(env: NodeJS.ProcessEnv): TlsConfig | undefined {
  const certPath = env.HERALD_TLS_CERT;
  const keyPath = env.HERALD_TLS_KEY;
  if (!certPath && !keyPath) return undefined;
  if (!certPath || !keyPath) throw new ConfigError('HERALD_TLS_CERT and HERALD_TLS_KEY must be set together');
  return {
    cert: readFileSync(certPath, 'utf8'),
    key: readFileSync(keyPath, 'utf8'),
    plainHttpPort: env.HERALD_HTTP_PORT ? integer(env, 'HERALD_HTTP_PORT', 0, 0, 65535) : undefined,
  };
}

const CLIENT_ID = /^[A-Za-z0-9_-]{2,64}$/;

/** `HERALD_BOOTSTRAP_CLIENT=id:secret` (the secret may itself contain colons). */
/** `HERALD_TRUST_PROXY`: unset/`false`, `true`, a hop count, or addresses and CIDR ranges. */
function readTrustProxy(env: NodeJS.ProcessEnv): HeraldConfig['trustProxy'] {
  const raw = env.HERALD_TRUST_PROXY?.trim();
  if (raw === undefined || raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return integer(env, 'HERALD_TRUST_PROXY', 0, 1, 100);
  const entries = raw.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address, bits, ...rest] = entry.split('/');
    const family = isIP(address ?? '');
    const maxBits = family === 6 ? 128 : 32;
    const validBits = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits);
    if (family === 0 || !validBits || rest.length > 0) {
      throw new ConfigError(`HERALD_TRUST_PROXY: "${entry}" is not an IP address or CIDR range (expected true, false, a hop count, or addresses/ranges separated by commas)`);
    }
  }
  return Object.freeze(entries);
}

function readBootstrapClient(env: NodeJS.ProcessEnv): OAuthSettings['bootstrapClient'] {
  const raw = env.HERALD_BOOTSTRAP_CLIENT;
  if (raw === undefined || raw === '') return undefined;
  const colon = raw.indexOf(':');
  const id = colon < 0 ? raw : raw.slice(0, colon);
  const secret = colon < 0 ? '' : raw.slice(colon + 1);
  if (!CLIENT_ID.test(id) || secret.length < 8) {
    // Never echo the value: it holds a secret.
    throw new ConfigError('HERALD_BOOTSTRAP_CLIENT must be "id:secret" (id of 2-64 letters, digits, _ or -; secret of 8+ characters)');
  }
  return { id, secret };
}

function readOAuth(env: NodeJS.ProcessEnv): OAuthSettings {
  return {
    bootstrapClient: readBootstrapClient(env),
    accessTokenTtlSeconds: integer(env, 'HERALD_TOKEN_TTL_SECONDS', 172_800, 60, 31_536_000),
    refreshTokenCap: integer(env, 'HERALD_REFRESH_TOKEN_CAP', 10_000_000, 1, 1_000_000_000),
    tokenRateLimitPerMinute: integer(env, 'HERALD_TOKEN_RATE_LIMIT', 600, 0, 1_000_000),
    tokenCacheSeconds: integer(env, 'HERALD_TOKEN_CACHE_SECONDS', 10, 0, 3600),
  };
}

export function loadConfig(env: NodeJS.ProcessEnv): HeraldConfig {
  rejectUnknown(env);
  const projects = (env.HERALD_PROJECTS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
  for (const key of projects) {
    if (!PROJECT_KEY.test(key)) throw new ConfigError(`HERALD_PROJECTS: "${key}" is not a valid project key (${PROJECT_KEY})`);
  }
  let delivery: WorkerConfig;
  try {
    // PORT is the API's; the worker's own /metrics port does not apply in-process.
    delivery = parseWorkerConfig({ ...env, PORT: undefined });
  } catch (error) {
    if (error instanceof WorkerConfigError) throw new ConfigError(error.message);
    throw error;
  }
  const config: HeraldConfig = {
    deliveryMode: oneOf(env, 'HERALD_DELIVERY', ['in-process', 'off'] as const, 'in-process'),
    delivery,
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: env.HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    projects,
    mode: oneOf(env, 'HERALD_MODE', ['production', 'development'] as const, 'production'),
    bodyLimitBytes: integer(env, 'HERALD_BODY_LIMIT_BYTES', 1_048_576, 1024, 64 * 1_048_576),
    trustProxy: readTrustProxy(env),
    tls: readTls(env),
    oauth: readOAuth(env),
    shutdownTimeoutMs: integer(env, 'HERALD_SHUTDOWN_TIMEOUT_MS', 8_000, 0, 600_000),
  };
  return Object.freeze(config);
}

/** A configuration for tests and embedding: defaults, with overrides. */
export function defaultConfig(overrides: Partial<HeraldConfig> = {}): HeraldConfig {
  return Object.freeze({ ...loadConfig({}), ...overrides });
}
