import { status as GrpcStatus, type StatusObject } from '@grpc/grpc-js';
import type { PeerFaultKind } from '../faults.js';

/** A gRPC error answer: what grpc-js sends as the call's status and the SDK exposes as `code`/`details`. */
export type RpcError = Pick<StatusObject, 'code' | 'details'>;

/** Thrown by handlers to answer with a status; anything else thrown is a peer bug. */
export class RpcFailure extends Error {
  constructor(readonly status: RpcError) {
    super(status.details);
  }
}

export const invalidArgument = (details: string): RpcFailure => new RpcFailure({ code: GrpcStatus.INVALID_ARGUMENT, details });
export const notFound = (resource: string): RpcFailure => new RpcFailure({ code: GrpcStatus.NOT_FOUND, details: `Resource not found (resource=${resource}).` });
export const alreadyExists = (details: string): RpcFailure => new RpcFailure({ code: GrpcStatus.ALREADY_EXISTS, details });

/**
 * The gRPC endpoint's answer to a Publish over the limit (observed; the REST endpoint words it
 * "Request payload size exceeds the limit: 10485760 bytes").
 */
export const requestTooLarge = (sizeBytes: number, limitBytes: number): RpcError => ({
  code: GrpcStatus.INVALID_ARGUMENT,
  details: `The value for request_size is too large. You passed ${sizeBytes} in the request, but the maximum value is ${limitBytes}.`,
});

/** Faults that are answered with a status (hang and drop are not answers). */
export type StatusFaultKind = Exclude<PeerFaultKind, 'hang' | 'drop-connection'>;

/**
 * What the service answers in each fault situation. Codes follow the Pub/Sub error reference;
 * bad credentials use PERMISSION_DENIED (an authorization failure, like AWS's AccessDenied), and a
 * server error uses UNAVAILABLE, the transient code the service returns most.
 */
export function faultStatus(kind: StatusFaultKind, request: { resource: string; sizeBytes: number; limitBytes: number }): RpcError {
  switch (kind) {
    case 'unknown-entity':
      return notFound(request.resource).status;
    case 'bad-credentials':
      return { code: GrpcStatus.PERMISSION_DENIED, details: 'User not authorized to perform this action.' };
    case 'throttled':
      return { code: GrpcStatus.RESOURCE_EXHAUSTED, details: 'Quota exceeded; the request was throttled.' };
    case 'server-error':
      return { code: GrpcStatus.UNAVAILABLE, details: 'The service was unable to fulfill your request. Please try again.' };
    case 'payload-too-large':
      return requestTooLarge(request.sizeBytes, request.limitBytes);
  }
}
