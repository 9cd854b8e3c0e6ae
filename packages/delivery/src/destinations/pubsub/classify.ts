import { classifyNetworkError, classOf, errorMessage, failure, lastError, unknownFailure, type ErrorCodeTable } from '../failure.js';
import type { DeliveryFailure } from '../port.js';

/** gRPC status codes by number (grpc/status.h). */
const GRPC_STATUS_NAMES: readonly string[] = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];

/** Pub/Sub publish errors by gRPC status (Pub/Sub error codes documentation). */
export const PUBSUB_ERROR_CODES: ErrorCodeTable = {
  // UNIMPLEMENTED: the endpoint is not a Pub/Sub publisher at all.
  configuration: ['NOT_FOUND', 'PERMISSION_DENIED', 'UNAUTHENTICATED', 'FAILED_PRECONDITION', 'UNIMPLEMENTED'],
  // UNKNOWN and CANCELLED come from transports that broke mid-call; ABORTED is a retryable conflict.
  temporary: ['UNAVAILABLE', 'DEADLINE_EXCEEDED', 'RESOURCE_EXHAUSTED', 'INTERNAL', 'ABORTED', 'UNKNOWN', 'CANCELLED'],
  payload: ['INVALID_ARGUMENT', 'OUT_OF_RANGE'],
};

/**
 * gRPC reports a host that does not resolve as UNAVAILABLE with only a text to tell it apart: the
 * vendor gives nothing else, so this one rule matches the message (grpc-js resolver wording).
 */
const NAME_NOT_RESOLVED = /Name resolution failed|ENOTFOUND/;

export function classifyPubSubError(error: unknown): DeliveryFailure {
  const network = classifyNetworkError(error);
  if (network !== undefined) return network;
  const last = lastError(error);
  const numeric = (last as { code?: unknown } | null)?.code;
  if (typeof numeric !== 'number') return unknownFailure(error);
  const code = GRPC_STATUS_NAMES[numeric] ?? `GRPC_${numeric}`;
  const message = errorMessage(last);
  if (code === 'UNAVAILABLE' && NAME_NOT_RESOLVED.test(message)) {
    return failure('configuration', 'ENOTFOUND', message, { cause: error });
  }
  const cls = classOf(PUBSUB_ERROR_CODES, code);
  if (cls === undefined) return unknownFailure(error);
  return failure(cls, code, message, { cause: error });
}
