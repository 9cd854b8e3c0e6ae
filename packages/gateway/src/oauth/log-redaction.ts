import type { Logger } from 'pino';

/**
 * Everywhere a secret could reach a log line: bearer and Basic credentials in headers, the form
 * fields of token requests (client secret, password, tokens), API client secrets and the external
 * OAuth authorization header. Fastify's request serializer logs neither headers nor bodies; these
 * paths are the second line of defence if a serializer or a handler ever logs them.
 */
export const SECRET_LOG_PATHS: readonly string[] = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'req.body.password',
  'req.body.client_secret',
  'req.body.refresh_token',
  'req.body.access_token',
  'req.body.token',
  'body.password',
  'body.client_secret',
  'body.refresh_token',
  'body.access_token',
  'body.token',
  // Customer tokens and passwords of the e-mail verification and password reset flows.
  'req.body.tokenValue',
  'req.body.newPassword',
  'body.tokenValue',
  'body.newPassword',
  'secret',
  '*.secret',
  'externalOAuth.authorizationHeader',
  '*.externalOAuth.authorizationHeader',
  'authorizationHeader',
  '*.authorizationHeader',
];

/**
 * Query parameters whose value is a credential. `?access_token=…` is refused with a 400 (§5.1),
 * and token requests carry their parameters in the body (§5.3, RFC 6749 §2.3.1 and §3.2), but a
 * misconfigured client that puts them in the URL has the URL logged before it is refused: the
 * values are hidden on every path, whatever the route.
 */
const SECRET_QUERY_PARAMETERS: ReadonlySet<string> = new Set([
  'access_token',
  'refresh_token',
  'token',
  'id_token',
  'password',
  'client_secret',
  'client_assertion',
  'assertion',
  'code',
  'code_verifier',
]);

/** A query parameter's name as URLSearchParams would read it (`+` and %-escapes decoded), lower-cased. */
function parameterName(raw: string): string {
  const name = raw.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(name).trim().toLowerCase();
  } catch {
    return name.trim().toLowerCase();
  }
}

/**
 * Customer tokens travel in the path (resources/customers.raml `/customers/email-token={token}`,
 * `/password-token={token}`): the segment's value is hidden wherever it appears, `=` escaped or not.
 */
const TOKEN_IN_PATH = /((?:email|password)-token(?:=|%3d))[^/?#]*/gi;

/**
 * The URL as logged. Token endpoints (`/oauth/*`) take no query parameters at all, so their whole
 * query string is hidden (a client that sends its form in the URL leaks more than the names above:
 * the username, an assertion under another name). Elsewhere the query is kept for diagnosis (it is
 * mostly `where`, `limit`, …) with the value of each credential parameter hidden; names are
 * matched decoded, so `pass%77ord=` is hidden as well.
 */
export function urlForLog(logged: string): string {
  const url = logged.replace(TOKEN_IN_PATH, '$1[redacted]');
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const path = url.slice(0, queryStart);
  if (/^\/+oauth(\/|$)/i.test(path)) return `${path}?[redacted]`;
  const pairs = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 0 || !SECRET_QUERY_PARAMETERS.has(parameterName(pair.slice(0, equals)))) return pair;
      return `${pair.slice(0, equals)}=[redacted]`;
    });
  return `${path}?${pairs.join('&')}`;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's request serializer, with the URL cleaned. */
function requestForLog(request: LoggedRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: request.url === undefined ? undefined : urlForLog(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * A child of the injected logger that redacts secrets. Pino's `redact` on a child replaces the
 * parent's list, so SECRET_LOG_PATHS includes the usual header paths as well.
 */
export function withSecretRedaction(logger: Logger): Logger {
  return logger.child(
    {},
    {
      redact: { paths: [...SECRET_LOG_PATHS], censor: '[redacted]' },
      serializers: { req: requestForLog },
    },
  );
}
