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
  'secret',
  '*.secret',
  'externalOAuth.authorizationHeader',
  '*.externalOAuth.authorizationHeader',
  'authorizationHeader',
  '*.authorizationHeader',
];

/** `?access_token=…` is refused with a 400 (§5.1), but the refused URL is still logged: hide the value. */
export function urlForLog(url: string): string {
  return url.replace(/([?&]access_token=)[^&#]*/gi, '$1[redacted]');
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
  return logger.child({}, {
    redact: { paths: [...SECRET_LOG_PATHS], censor: '[redacted]' },
    serializers: { req: requestForLog },
  });
}
