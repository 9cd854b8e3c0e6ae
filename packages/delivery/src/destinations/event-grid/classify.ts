import { classifyNetworkError, errorCode, errorMessage, failure, unknownFailure } from '../failure.js';
import type { DeliveryFailure, FailureClass } from '../port.js';

interface RestErrorShape {
  statusCode?: number;
  code?: string;
  response?: { headers?: { get(name: string): string | undefined } };
}

/**
 * Event Grid answers by HTTP status (its error body's `code` is informational): 401/403/404 mean the
 * topic or key is wrong, 400/413 the events themselves, 429/5xx the service's state.
 */
export function classOfEventGridStatus(status: number): FailureClass {
  if (status === 401 || status === 403 || status === 404) return 'configuration';
  if (status === 400 || status === 413) return 'payload';
  if (status === 408 || status === 429 || status >= 500) return 'temporary';
  return 'configuration';
}

export function classifyEventGridError(error: unknown): DeliveryFailure {
  const network = classifyNetworkError(error);
  if (network !== undefined) return network;
  const shape = (typeof error === 'object' && error !== null ? error : {}) as RestErrorShape;
  if (shape.statusCode === undefined) return unknownFailure(error);
  const retryAfterMs = parseRetryAfter(shape.response?.headers?.get('retry-after'));
  return failure(
    classOfEventGridStatus(shape.statusCode),
    errorCode(error) ?? `HTTP${shape.statusCode}`,
    errorMessage(error),
    retryAfterMs === undefined ? { cause: error } : { cause: error, retryAfterMs },
  );
}

/** `Retry-After` in seconds (the form Azure uses); dates are ignored. */
function parseRetryAfter(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}
