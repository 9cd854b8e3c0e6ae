import { classifyNetworkError, classOf, errorCode, errorMessage, failure, lastError, unknownFailure, type ErrorCodeTable } from '../failure.js';
import type { DeliveryFailure } from '../port.js';

/**
 * `ServiceBusError.code` values, plus the `MessagingError` codes of @azure/core-amqp that reach us
 * untranslated. `UnauthorizedAccess` is retryable in the SDK, but a revoked key will not come back
 * by waiting: configuration (§3.3 "credentials deleted").
 */
export const SERVICE_BUS_ERROR_CODES: ErrorCodeTable = {
  configuration: [
    'MessagingEntityNotFound',
    'MessagingEntityNotFoundError',
    'MessagingEntityDisabled',
    'MessagingEntityDisabledError',
    'UnauthorizedAccess',
    'UnauthorizedError',
    'ArgumentError',
    'ArgumentOutOfRangeError',
    'NotImplementedError',
    'InvalidFieldError',
  ],
  temporary: [
    'ServiceBusy',
    'ServerBusyError',
    'ServiceTimeout',
    'OperationTimeoutError',
    'ServiceCommunicationProblem',
    'ServiceCommunicationError',
    'ServiceUnavailableError',
    'ConnectionForcedError',
    'ConnectionLostError',
    'InternalServerError',
    'SenderBusyError',
    'SenderNotReadyError',
    // The entity is full; it drains as its consumers receive.
    'QuotaExceeded',
    'QuotaExceededError',
    // What the SDK reports when nothing listens at the endpoint (sdk-facts.md).
    'GeneralError',
  ],
  payload: ['MessageSizeExceeded', 'MessageTooLargeError'],
};

/** After failed attempts the SDK throws an `AggregateError`: the last attempt's error decides. */
export function classifyServiceBusError(error: unknown): DeliveryFailure {
  const network = classifyNetworkError(error);
  if (network !== undefined) return network;
  const last = lastError(error);
  const code = errorCode(last);
  const cls = code === undefined ? undefined : classOf(SERVICE_BUS_ERROR_CODES, code);
  if (code === undefined || cls === undefined) return unknownFailure(error);
  return failure(cls, code, errorMessage(last), { cause: error });
}
