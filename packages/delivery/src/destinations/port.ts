import type { DeliveryPayload, DestinationType } from '@herald/model';
import type { DeliveryFormat } from '../format/formatted.js';

/**
 * The destination port: what the delivery engine knows about a message queue.
 *
 * In the contract:
 * - `encode` is pure (no I/O, no SDK): it formats one delivery payload (Platform or CloudEvents,
 *   §6.2), binds it to the destination's native message shape, measures it the way the destination
 *   counts it, and applies the payload-not-included fallback when a message does not fit (§6.2).
 *   A payload that does not fit even without its message-specific fields is a `payload` failure.
 *   The format is per delivery (`DeliveryFormat`: whether the message can be retrieved decides the
 *   CloudEvents `dataref`), so it is handed to the formatter as it is, never rebuilt from its type.
 * - `send` moves already-encoded messages. It answers one outcome per input, in input order.
 *   Expected failures are values, classified `configuration` / `temporary` / `payload` (§3.3, §6.2);
 *   a thrown error means a bug.
 * - `verify` checks or prepares the destination beyond what a send proves (SQS: a standard queue with
 *   the default 256 KiB size limit; EventBridge: creates the partner event source; §2.4). Used
 *   before a test notification; a passed check is remembered by the adapter.
 *
 * Deliberately out of the contract:
 * - No SDK type crosses it: native messages are plain data, clients stay inside the adapter.
 * - Long-term retrying, backoff and health belong to the engine. An adapter only resends, within
 *   one `send` call, the entries of a partial batch that failed with a temporary per-entry error,
 *   a bounded number of times (`DestinationEnvironment.resend`).
 *
 * What every adapter guarantees:
 * - It sends in its destination's native batches (see `limits`) and never exceeds them.
 * - It honours `SendOptions.signal` and `timeoutMs`, and turns off the SDK's own long retries.
 * - It imports its SDK lazily, on the first request, so unused SDKs are never loaded.
 * - `close()` releases its client; sending after `close()` is a bug.
 *
 * EventBridge: the partner event source is `aws.partner/<partnerName>/<projectKey>/<subscription
 * id>` (see `eventbridge/source-name.ts`).
 */
export interface DestinationAdapter<TNative = unknown> {
  readonly type: DestinationType;
  readonly limits: DestinationLimits;
  encode(payload: DeliveryPayload, format: DeliveryFormat, context: EncodeContext): EncodeResult<TNative>;
  send(batch: readonly EncodedMessage<TNative>[], options?: SendOptions): Promise<SendOutcome[]>;
  verify(context: VerifyContext, options?: SendOptions): Promise<VerifyOutcome>;
  close(): Promise<void>;
}

/** Who the delivery is for: the EventBridge partner event source name is derived from it. */
export interface EncodeContext {
  subscriptionId: string;
}

/** The subscription a destination is checked for (EventBridge creates its partner event source). */
export interface VerifyContext extends EncodeContext {
  projectKey: string;
}

/** A message in the destination's native shape, ready for `send`. Plain data only. */
export interface EncodedMessage<TNative = unknown> {
  /** The delivery's stable id (message id, or `<resourceId>-<notificationType>-<version>`). */
  readonly id: string;
  readonly native: TNative;
  /** Size as the destination counts it against `limits.maxMessageBytes`. */
  readonly sizeBytes: number;
  /** True when the message-specific fields were replaced by `payloadNotIncluded` (§6.2). */
  readonly payloadNotIncluded: boolean;
}

export type EncodeResult<TNative = unknown> = { ok: true; message: EncodedMessage<TNative> } | { ok: false; failure: DeliveryFailure };

/** The native limits an adapter batches and measures against (vendor documentation). */
export interface DestinationLimits {
  /** Largest single message, in bytes, as the destination counts it. */
  readonly maxMessageBytes: number;
  /** Most messages in one request. */
  readonly maxBatchEntries: number;
  /** Largest sum of message sizes in one request. */
  readonly maxBatchBytes: number;
}

export interface SendOptions {
  /** Aborts the whole send; entries not yet acknowledged fail as `temporary` `Aborted`. */
  signal?: AbortSignal;
  /** Upper bound for the whole send call; defaults to `DestinationEnvironment.timeouts.sendMs`. */
  timeoutMs?: number;
}

export type FailureClass = 'configuration' | 'temporary' | 'payload';

export interface DeliveryFailure {
  class: FailureClass;
  /** The vendor's error code or name (`QueueDoesNotExist`, `UNAVAILABLE`, `ECONNREFUSED`, …). */
  code: string;
  message: string;
  /** When the destination asked to wait (throttling), in milliseconds. */
  retryAfterMs?: number;
  /** The original error, for logs. Never serialised into API responses. */
  cause?: unknown;
}

export type SendOutcome = { status: 'delivered' } | { status: 'failed'; failure: DeliveryFailure };

export type VerifyOutcome = { ok: true } | { ok: false; failure: DeliveryFailure };

export const DELIVERED: SendOutcome = Object.freeze({ status: 'delivered' });

export function failed(failure: DeliveryFailure): SendOutcome {
  return { status: 'failed', failure };
}
