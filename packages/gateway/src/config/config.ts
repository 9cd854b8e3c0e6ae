import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { parseWorkerConfig, type WorkerConfig } from '@herald/delivery';
import {
  acceptedValue,
  ConfigurationError,
  EnvironmentReader,
  HERALD_VARIABLES,
  refusedValue,
  type BootstrapClient,
  type Environment,
  type Parsed,
} from '@herald/model';

/**
 * A configuration error of the gateway: the model's one ConfigurationError (exit code 2, one line
 * `herald: …`), under the name this package has always exported.
 */
export { ConfigurationError as ConfigError };

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
  /** Own listener for `GET /metrics` (HOST:port), which then leaves the API port; undefined = on the API port. */
  metricsPort: number | undefined;
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
  bootstrapClient: BootstrapClient | undefined;
  /** `expires_in` of access tokens (§5.3 shows 172800, two days). */
  accessTokenTtlSeconds: number;
  /** §8: beyond this many refresh tokens the least recently used are deleted. */
  refreshTokenCap: number;
  /** Token requests per API client per minute (§5.9); 0 turns the limit off. */
  tokenRateLimitPerMinute: number;
  /** How long a validated access token is trusted from memory (never beyond its expiry); 0 = never. */
  tokenCacheSeconds: number;
}

const V = HERALD_VARIABLES;
const HOP_COUNT = /^[0-9]+$/;
const MAX_HOPS = 100;

/** One `HERALD_TRUST_PROXY` entry: an IPv4/IPv6 address, optionally `/bits`. */
function isAddressOrRange(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  const maxBits = family === 6 ? 128 : 32;
  const validBits = bits === undefined || (/^[0-9]{1,3}$/.test(bits) && Number(bits) <= maxBits);
  return family !== 0 && validBits && rest.length === 0;
}

/** `HERALD_TRUST_PROXY`: `false`/`0`, `true`, a hop count, or addresses and CIDR ranges. */
function parseTrustProxy(raw: string): Parsed<HeraldConfig['trustProxy']> {
  const value = raw.trim();
  if (value === 'false' || value === '0') return acceptedValue(false);
  if (value === 'true') return acceptedValue(true);
  if (HOP_COUNT.test(value)) {
    const hops = Number(value);
    return hops <= MAX_HOPS ? acceptedValue(hops) : refusedValue(`got "${raw}"`);
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const invalid = entries.find((entry) => !isAddressOrRange(entry));
  return invalid === undefined ? acceptedValue(Object.freeze(entries)) : refusedValue(`"${invalid}" is not an IP address or CIDR range`);
}

/** HERALD_TLS_CERT and HERALD_TLS_KEY, both or neither; the files are read at start. */
function readTls(reader: EnvironmentReader): TlsConfig | undefined {
  const certPath = reader.read(V.tlsCert);
  const keyPath = reader.read(V.tlsKey);
  const plainHttpPort = reader.read(V.plainHttpPort);
  if (certPath === undefined && keyPath === undefined) return undefined;
  if (certPath === undefined || keyPath === undefined) {
    throw new ConfigurationError(`${V.tlsCert.name} and ${V.tlsKey.name} must be set together`);
  }
  return { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8'), plainHttpPort };
}

function readOAuth(reader: EnvironmentReader): OAuthSettings {
  return {
    bootstrapClient: reader.read(V.bootstrapClient),
    accessTokenTtlSeconds: reader.read(V.accessTokenTtlSeconds),
    refreshTokenCap: reader.read(V.refreshTokenCap),
    tokenRateLimitPerMinute: reader.read(V.tokenRateLimitPerMinute),
    tokenCacheSeconds: reader.read(V.tokenCacheSeconds),
  };
}

export function loadConfig(env: Environment): HeraldConfig {
  const reader = new EnvironmentReader(env, 'herald serve');
  const config: HeraldConfig = {
    deliveryMode: reader.read(V.deliveryMode),
    // PORT is the API's; the worker's own /metrics port does not apply in-process.
    delivery: parseWorkerConfig({ ...env, PORT: undefined }),
    port: reader.read(V.apiPort),
    host: reader.read(V.apiHost),
    databaseUrl: reader.read(V.databaseUrl),
    logLevel: reader.read(V.logLevel),
    projects: reader.read(V.projects),
    mode: reader.read(V.mode),
    bodyLimitBytes: reader.read(V.bodyLimitBytes),
    trustProxy: reader.readWith(V.trustProxy, parseTrustProxy) ?? false,
    tls: readTls(reader),
    metricsPort: reader.read(V.metricsPort),
    oauth: readOAuth(reader),
    shutdownTimeoutMs: reader.read(V.shutdownTimeoutMs),
  };
  return Object.freeze(config);
}

/** A configuration for tests and embedding: defaults, with overrides. */
export function defaultConfig(overrides: Partial<HeraldConfig> = {}): HeraldConfig {
  return Object.freeze({ ...loadConfig({}), ...overrides });
}
