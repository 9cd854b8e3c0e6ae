import type { PeerFaultKind } from '../faults.js';

/**
 * AMQP error conditions the service uses, and the `@azure/service-bus` error code each maps to
 * (the SDK's `translateServiceBusError`).
 */
export const Condition = {
  /** → MessagingEntityNotFound, but only with the description of `entityNotFound` below. */
  notFound: 'amqp:not-found',
  /** → UnauthorizedAccess */
  unauthorizedAccess: 'amqp:unauthorized-access',
  /** → ServiceBusy */
  serverBusy: 'com.microsoft:server-busy',
  /** → GeneralError (retryable in the SDK, as a 5xx is) */
  internalError: 'amqp:internal-error',
  /** → MessageSizeExceeded */
  messageSizeExceeded: 'amqp:link:message-size-exceeded',
  /** → MessageLockLost */
  messageLockLost: 'com.microsoft:message-lock-lost',
  notImplemented: 'amqp:not-implemented',
  decodeError: 'amqp:decode-error',
  /** The condition a receiver puts in a `rejected` outcome to dead-letter a message. */
  deadLetter: 'com.microsoft:dead-letter',
} as const;

export interface AmqpFailure {
  readonly condition: string;
  readonly description: string;
}

/**
 * The SDK recognises a missing entity by this exact wording (the vendor gives nothing else to tell
 * it from other `amqp:not-found` cases), so the peer must use it.
 */
export function entityNotFound(resource: string): AmqpFailure {
  return { condition: Condition.notFound, description: `The messaging entity '${resource}' could not be found.` };
}

/** Faults a peer reports as an AMQP error on the operation they hit. */
export type ErrorFaultKind = Exclude<PeerFaultKind, 'hang' | 'drop-connection'>;

export function faultFailure(kind: ErrorFaultKind, resource: string): AmqpFailure {
  switch (kind) {
    case 'unknown-entity':
      return entityNotFound(resource);
    case 'bad-credentials':
      return { condition: Condition.unauthorizedAccess, description: `Unauthorized access to '${resource}': the token is not valid.` };
    case 'throttled':
      return { condition: Condition.serverBusy, description: 'The server is busy. Please try again after some time.' };
    case 'server-error':
      return { condition: Condition.internalError, description: 'The service was unable to process the request; please retry.' };
    case 'payload-too-large':
      return { condition: Condition.messageSizeExceeded, description: 'The received message exceeds the maximum size allowed.' };
  }
}
