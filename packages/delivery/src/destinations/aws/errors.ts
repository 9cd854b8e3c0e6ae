import { classifyNetworkError, classOf, classOfHttpStatus, errorMessage, errorName, failure, unknownFailure, type ErrorCodeTable } from '../failure.js';
import type { DeliveryFailure } from '../port.js';
import { ENTRY_DELIVERED, type EntryResult } from '../send-loop.js';

/**
 * Error codes every AWS service shares (AWS common errors documentation). Each AWS adapter adds
 * its own service's codes to these.
 */
export const AWS_COMMON_CODES: ErrorCodeTable = {
  configuration: [
    'AccessDenied',
    'AccessDeniedException',
    'AuthFailure',
    'AuthorizationError',
    // IAM mode (reference type AwsAuthenticationMode): the SDK's default provider chain found no credentials
    // for Herald itself. The SDK's own error class, thrown before any request is sent.
    'CredentialsProviderError',
    'ExpiredToken',
    'ExpiredTokenException',
    'IncompleteSignature',
    'InvalidAccessKeyId',
    'InvalidClientTokenId',
    'InvalidSignatureException',
    'MissingAuthenticationToken',
    'NotAuthorized',
    'OptInRequired',
    'SignatureDoesNotMatch',
    'UnrecognizedClientException',
  ],
  temporary: [
    'BandwidthLimitExceeded',
    'InternalError',
    'InternalFailure',
    'InternalServerError',
    'RequestLimitExceeded',
    'RequestThrottled',
    'RequestThrottledException',
    'RequestTimeout',
    'RequestTimeoutException',
    'ServiceUnavailable',
    'ServiceUnavailableException',
    'SlowDown',
    'Throttled',
    'Throttling',
    'ThrottlingException',
    'TimeoutError',
    'TooManyRequestsException',
  ],
  payload: [],
};

export function mergeTables(...tables: ErrorCodeTable[]): ErrorCodeTable {
  return {
    configuration: tables.flatMap((t) => t.configuration),
    temporary: tables.flatMap((t) => t.temporary),
    payload: tables.flatMap((t) => t.payload),
  };
}

interface AwsServiceErrorShape {
  name?: string;
  Code?: string;
  $fault?: 'client' | 'server';
  $metadata?: { httpStatusCode?: number };
  $retryable?: { throttling?: boolean };
}

/**
 * Classifies an error thrown by an AWS SDK v3 client. Order: network/DNS first (the request never
 * got an answer), then the service's error code (`name`, the wire `__type`/`Code`), then the SDK's
 * own throttling flag, then the HTTP status.
 */
export function classifyAwsError(error: unknown, table: ErrorCodeTable): DeliveryFailure {
  const network = classifyNetworkError(error);
  if (network !== undefined) return network;
  const shape = (typeof error === 'object' && error !== null ? error : {}) as AwsServiceErrorShape;
  const code = shape.Code ?? errorName(error) ?? 'Unknown';
  const status = shape.$metadata?.httpStatusCode;
  const cls =
    classOf(table, code) ??
    (shape.$retryable?.throttling === true ? 'temporary' : undefined) ??
    classOfHttpStatus(status) ??
    (shape.$fault === 'server' ? 'temporary' : undefined);
  if (cls === undefined) return unknownFailure(error);
  return failure(cls, code, errorMessage(error), { cause: error });
}

/** A per-entry error of a batch API (SQS, SNS): a server fault is temporary and resent at once. */
export function classifyAwsEntryError(
  entry: { Code?: string; Message?: string; SenderFault?: boolean },
  table: ErrorCodeTable,
): { failure: DeliveryFailure; resendable: boolean } {
  const code = entry.Code ?? 'Unknown';
  const message = entry.Message ?? 'The destination rejected this entry';
  if (entry.SenderFault === false) {
    return { failure: failure('temporary', code, message), resendable: true };
  }
  // A sender fault on one entry while others went through: the entry itself is at fault unless
  // the code says otherwise (e.g. KMS access).
  const cls = classOf(table, code) ?? 'payload';
  return { failure: failure(cls, code, message), resendable: cls === 'temporary' };
}

/**
 * The entry results of a batch API (SQS, SNS) whose entries were sent with their index as `Id`:
 * the entries named in `Failed` failed, the others went through.
 */
export function awsBatchResults(
  count: number,
  failed: readonly { Id?: string; Code?: string; Message?: string; SenderFault?: boolean }[] | undefined,
  table: ErrorCodeTable,
): EntryResult[] {
  const results: EntryResult[] = Array.from({ length: count }, () => ENTRY_DELIVERED);
  for (const entry of failed ?? []) {
    const index = Number(entry.Id);
    if (Number.isInteger(index) && index >= 0 && index < results.length) {
      results[index] = { status: 'failed', ...classifyAwsEntryError(entry, table) };
    }
  }
  return results;
}
