import type { DeliveryFailure, FailureClass } from './port.js';

/**
 * Failure normalisation shared by all adapters. Each adapter classifies its vendor's error codes
 * (a table per adapter, as data); what is common to every transport lives here: the network and
 * DNS errors of Node, our own timeouts and aborts, and unwrapping of `AggregateError`.
 */

/** Vendor error codes by class; an adapter's classification table. */
export type ErrorCodeTable = Readonly<Record<FailureClass, readonly string[]>>;

export function classOf(table: ErrorCodeTable, code: string): FailureClass | undefined {
  if (table.configuration.includes(code)) return 'configuration';
  if (table.temporary.includes(code)) return 'temporary';
  if (table.payload.includes(code)) return 'payload';
  return undefined;
}

/** Node system error codes. DNS failure = wrong host name in the destination: configuration. */
const NETWORK_CODES: ErrorCodeTable = {
  configuration: [
    'ENOTFOUND',
    // TLS: the peer's certificate does not match or is not trusted; waiting will not fix it.
    'CERT_HAS_EXPIRED',
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'SELF_SIGNED_CERT_IN_CHAIN',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'ERR_TLS_CERT_ALTNAME_INVALID',
  ],
  temporary: [
    'ECONNREFUSED',
    'ECONNRESET',
    'ECONNABORTED',
    'EPIPE',
    'ETIMEDOUT',
    'EHOSTUNREACH',
    'EHOSTDOWN',
    'ENETUNREACH',
    'ENETDOWN',
    'ENETRESET',
    // EAI_AGAIN: the resolver itself failed (not "no such host"): retry.
    'EAI_AGAIN',
    'UND_ERR_SOCKET',
    'UND_ERR_CONNECT_TIMEOUT',
    'UND_ERR_HEADERS_TIMEOUT',
    'UND_ERR_BODY_TIMEOUT',
    'ERR_HTTP2_STREAM_ERROR',
    'ERR_STREAM_PREMATURE_CLOSE',
  ],
  payload: [],
};

export function failure(cls: FailureClass, code: string, message: string, extra: { retryAfterMs?: number; cause?: unknown } = {}): DeliveryFailure {
  const result: DeliveryFailure = { class: cls, code, message };
  if (extra.retryAfterMs !== undefined) result.retryAfterMs = extra.retryAfterMs;
  if (extra.cause !== undefined) result.cause = extra.cause;
  return result;
}

/** SDKs that retry wrap the attempts in an `AggregateError`; the last one says what happened. */
export function lastError(error: unknown): unknown {
  let current = error;
  while (current instanceof AggregateError && current.errors.length > 0) {
    current = current.errors[current.errors.length - 1];
  }
  return current;
}

function stringProp(value: unknown, key: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const prop = (value as Record<string, unknown>)[key];
  return typeof prop === 'string' ? prop : undefined;
}

export function errorName(error: unknown): string | undefined {
  return stringProp(error, 'name');
}

export function errorCode(error: unknown): string | undefined {
  return stringProp(error, 'code');
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : 'Unknown error';
}

/**
 * The Node system error code (`ECONNREFUSED`, `ENOTFOUND`, …) anywhere in the error's `cause`
 * chain or its own `code`/`errno` (SDKs wrap the socket error, some copy its fields).
 */
export function systemErrorCode(error: unknown): string | undefined {
  let current: unknown = lastError(error);
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    for (const key of ['code', 'errno'] as const) {
      const value = stringProp(current, key);
      if (value !== undefined && classOf(NETWORK_CODES, value) !== undefined) return value;
    }
    current = lastError((current as { cause?: unknown }).cause);
  }
  return undefined;
}

/** Network and DNS errors, by system code. */
export function classifyNetworkError(error: unknown): DeliveryFailure | undefined {
  const code = systemErrorCode(error);
  if (code === undefined) return undefined;
  const cls = classOf(NETWORK_CODES, code) ?? 'temporary';
  return failure(cls, code, errorMessage(lastError(error)), { cause: error });
}

/** Our deadline or the caller's signal ended the request: always temporary (§3.3 TemporaryError). */
export function abortFailure(signal: AbortSignal | undefined, error: unknown): DeliveryFailure | undefined {
  if (signal?.aborted !== true) return undefined;
  const reason: unknown = signal.reason;
  const timedOut = reason instanceof Error && reason.name === 'TimeoutError';
  return timedOut
    ? failure('temporary', 'Timeout', 'The destination did not answer in time', { cause: error })
    : failure('temporary', 'Aborted', 'The send was aborted', { cause: error });
}

/** Classes by HTTP status when the vendor code is unknown. */
export function classOfHttpStatus(status: number | undefined): FailureClass | undefined {
  if (status === undefined) return undefined;
  if (status === 401 || status === 403 || status === 404) return 'configuration';
  if (status === 413) return 'payload';
  if (status === 408 || status === 429 || status >= 500) return 'temporary';
  // Any other client fault: the destination refuses the request as configured; waiting won't help.
  if (status >= 400) return 'configuration';
  return undefined;
}

/** The last resort of every classifier: unknown errors are retried, and keep their cause. */
export function unknownFailure(error: unknown): DeliveryFailure {
  const inner = lastError(error);
  const code = errorCode(inner) ?? errorName(inner) ?? 'Unknown';
  return failure('temporary', code, errorMessage(inner), { cause: error });
}
