import type { SubscriptionHealthStatus } from '@herald/model';
import type { DeliveryFailure, FailureClass } from '../destinations/port.js';
import type { DropReason, ProjectEnvironment } from './types.js';

const HOUR_MS = 3_600_000;

/**
 * When failed deliveries are tried again and when they are given up on: data, not code (the
 * svix worker's schedule with clamped Retry-After and ±20 % jitter).
 */
export interface RetryPolicy {
  backoff: {
    /** Delay after the first failure. */
    initialMs: number;
    /** Growth per further failure. */
    multiplier: number;
    /** Longest delay between two attempts. */
    maxMs: number;
    /** Relative jitter: 0.2 spreads each delay over ±20 %, so retries of a burst do not align. */
    jitter: number;
  };
  /** A destination's `Retry-After` (throttling) is honoured, clamped into this range. */
  retryAfter: { minMs: number; maxMs: number };
  windows: {
    /** §6.2 guarantees 1: temporary errors are retried up to 48 hours, then dropped. */
    temporaryMs: number;
    /** §3.3: ConfigurationError lasts 24 h (production) or 1 h (development, staging), then stops. */
    configurationMs: Readonly<Record<ProjectEnvironment, number>>;
  };
  /** Dropped deliveries are kept this long for listing and replay. */
  droppedRetentionMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  backoff: Object.freeze({ initialMs: 1_000, multiplier: 2, maxMs: 10 * 60_000, jitter: 0.2 }),
  retryAfter: Object.freeze({ minMs: 1_000, maxMs: 15 * 60_000 }),
  windows: Object.freeze({
    temporaryMs: 48 * HOUR_MS,
    configurationMs: Object.freeze({ production: 24 * HOUR_MS, development: HOUR_MS, staging: HOUR_MS }),
  }),
  droppedRetentionMs: 14 * 24 * HOUR_MS,
});

export type RetryPolicyOptions = {
  backoff?: Partial<RetryPolicy['backoff']>;
  retryAfter?: Partial<RetryPolicy['retryAfter']>;
  windows?: { temporaryMs?: number; configurationMs?: Partial<Record<ProjectEnvironment, number>> };
  droppedRetentionMs?: number;
};

export function createRetryPolicy(options: RetryPolicyOptions = {}): RetryPolicy {
  const base = DEFAULT_RETRY_POLICY;
  const policy: RetryPolicy = {
    backoff: { ...base.backoff, ...options.backoff },
    retryAfter: { ...base.retryAfter, ...options.retryAfter },
    windows: {
      temporaryMs: options.windows?.temporaryMs ?? base.windows.temporaryMs,
      configurationMs: { ...base.windows.configurationMs, ...options.windows?.configurationMs },
    },
    droppedRetentionMs: options.droppedRetentionMs ?? base.droppedRetentionMs,
  };
  const { backoff } = policy;
  if (!(backoff.initialMs > 0 && backoff.multiplier >= 1 && backoff.maxMs >= backoff.initialMs)) {
    throw new RangeError('retry backoff needs initialMs > 0, multiplier >= 1 and maxMs >= initialMs');
  }
  if (!(backoff.jitter >= 0 && backoff.jitter < 1)) throw new RangeError('retry jitter must be in [0, 1)');
  return policy;
}

/**
 * Delay before the next attempt after `failures` consecutive failures (1 = the first failure).
 * `random` returns a number in [0, 1) (injected so tests are deterministic).
 */
export function retryDelayMs(policy: RetryPolicy, failures: number, retryAfterMs: number | undefined, random: () => number): number {
  const { initialMs, multiplier, maxMs, jitter } = policy.backoff;
  const exponent = Math.max(0, failures - 1);
  const planned = Math.min(maxMs, initialMs * multiplier ** exponent);
  const jittered = planned * (1 + jitter * (2 * random() - 1));
  if (retryAfterMs === undefined) return Math.round(jittered);
  // The destination asked to wait: never earlier than it asked (within the clamp).
  const asked = Math.min(policy.retryAfter.maxMs, Math.max(policy.retryAfter.minMs, retryAfterMs));
  return Math.round(Math.max(jittered, asked));
}

export type FailureDecision = { action: 'retry'; dueAt: Date } | { action: 'drop'; reason: DropReason };

export interface FailureContext {
  now: Date;
  /** Health of the subscription when the attempt was made (after a success of the same batch, if any). */
  status: SubscriptionHealthStatus;
  /** Failures of this delivery including this one. */
  failures: number;
  /** When this delivery first failed (this attempt, when it is the first failure). */
  firstFailureAt: Date;
  /** End of the subscription's ConfigurationError window, when it is in (or entering) one. */
  configurationWindowEndsAt: Date | undefined;
  random: () => number;
}

/**
 * What happens to one delivery whose attempt failed (§3.3, §6.2 delivery guarantees 1):
 * - payload failures are dropped at once: the same bytes will be refused again;
 * - a subscription that was already ConfigurationErrorDeliveryStopped gives each new delivery one
 *   try against its configuration: a configuration failure drops it (the window that would retry it
 *   has elapsed; §3.3 "messages dropped earlier are not redelivered"), while a temporary failure
 *   (an outage) is retried like any other for 48 hours (§6.2 guarantee 1);
 * - temporary failures are retried with backoff until 48 hours after the first failure; the last
 *   try is made at the end of the window, and if that fails too the delivery is dropped;
 * - configuration failures are retried with backoff; the subscription-wide window (health) decides
 *   when they stop, so a retry is never scheduled past the window's end.
 */
export function decideAfterFailure(policy: RetryPolicy, failure: DeliveryFailure, context: FailureContext): FailureDecision {
  return AFTER_FAILURE[failure.class](policy, failure, context);
}

type Decide = (policy: RetryPolicy, failure: DeliveryFailure, context: FailureContext) => FailureDecision;

/** One decision per failure class; a class added to `FailureClass` without one is a compile error. */
const AFTER_FAILURE: Readonly<Record<FailureClass, Decide>> = {
  payload: afterPayloadFailure,
  temporary: afterTemporaryFailure,
  configuration: afterConfigurationFailure,
};

/** The destination refused the message itself: the same bytes will be refused again. */
function afterPayloadFailure(): FailureDecision {
  return { action: 'drop', reason: 'PayloadError' };
}

/** Retried with backoff for 48 hours after the first failure (§6.2 guarantee 1), then dropped. */
function afterTemporaryFailure(policy: RetryPolicy, failure: DeliveryFailure, context: FailureContext): FailureDecision {
  const windowEnd = context.firstFailureAt.getTime() + policy.windows.temporaryMs;
  if (context.now.getTime() >= windowEnd) return { action: 'drop', reason: 'TemporaryErrorWindowElapsed' };
  return { action: 'retry', dueAt: new Date(Math.min(plannedRetry(policy, failure, context), windowEnd)) };
}

/**
 * A stopped subscription's new delivery had its one try; otherwise retried with backoff, never
 * past the end of the subscription's ConfigurationError window (§3.3).
 */
function afterConfigurationFailure(policy: RetryPolicy, failure: DeliveryFailure, context: FailureContext): FailureDecision {
  if (context.status === 'ConfigurationErrorDeliveryStopped') return { action: 'drop', reason: 'ConfigurationErrorDeliveryStopped' };
  const planned = plannedRetry(policy, failure, context);
  const windowEnd = context.configurationWindowEndsAt?.getTime();
  if (windowEnd !== undefined && context.now.getTime() < windowEnd) return { action: 'retry', dueAt: new Date(Math.min(planned, windowEnd)) };
  return { action: 'retry', dueAt: new Date(planned) };
}

/** When the next attempt would come by the backoff (and any `Retry-After`), in ms since the epoch. */
function plannedRetry(policy: RetryPolicy, failure: DeliveryFailure, context: FailureContext): number {
  return context.now.getTime() + retryDelayMs(policy, context.failures, failure.retryAfterMs, context.random);
}
