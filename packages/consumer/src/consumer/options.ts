import type { SequencerOptions } from '../ordering/sequencer.js';
import type { MessageFilter, OrderingOptions, RetryOptions } from './types.js';

/** Options are checked once, at construction: a nonsensical value is a bug, so it throws. */
export function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be an integer >= 1 (got ${value})`);
  return value;
}

function nonNegativeInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be an integer >= 0 (got ${value})`);
  return value;
}

export interface ResolvedRetry {
  readonly failureBaseMs: number;
  readonly failureMaxMs: number;
  readonly busyMinMs: number;
  readonly storeUnavailableMs: number;
  readonly bufferFullMs: number;
}

export function resolveRetry(retry: RetryOptions | undefined): ResolvedRetry {
  return {
    failureBaseMs: nonNegativeInteger('retry.failureBaseMs', retry?.failureBaseMs ?? 1_000),
    failureMaxMs: nonNegativeInteger('retry.failureMaxMs', retry?.failureMaxMs ?? 30_000),
    busyMinMs: nonNegativeInteger('retry.busyMinMs', retry?.busyMinMs ?? 250),
    storeUnavailableMs: nonNegativeInteger('retry.storeUnavailableMs', retry?.storeUnavailableMs ?? 5_000),
    bufferFullMs: nonNegativeInteger('retry.bufferFullMs', retry?.bufferFullMs ?? 1_000),
  };
}

/** The time hold of a delivery whose predecessor is unknown starts here (see predecessor-window.ts). */
const MIN_HOLD_MS = 25;
/** Arrivals that always pass before such a hold ends by count: a few receive batches' worth of disorder. */
const MIN_HOLD_ARRIVALS = 128;

export function resolveOrdering(ordering: OrderingOptions, failOpen: boolean): SequencerOptions {
  const maxWaitMs = positiveInteger('ordering.maxWaitMs', ordering.maxWaitMs ?? 10_000);
  const unknownStart = ordering.unknownStart ?? 'hold';
  if (unknownStart !== 'hold' && unknownStart !== 'wait' && unknownStart !== 'immediate') {
    throw new RangeError(`ordering.unknownStart must be 'hold', 'wait' or 'immediate'`);
  }
  // "Well under maxWaitMs": a tenth of it, at most 1 s, and never below the smallest hold.
  const maxHoldMs = positiveInteger('ordering.maxHoldMs', ordering.maxHoldMs ?? Math.max(MIN_HOLD_MS, Math.min(1_000, Math.floor(maxWaitMs / 10))));
  return {
    filteredMessages: filteredMessagesOf(ordering.filteredMessages),
    minHoldMs: Math.min(MIN_HOLD_MS, maxHoldMs),
    maxHoldMs,
    minHoldArrivals: MIN_HOLD_ARRIVALS,
    maxWaitMs,
    maxBacklogWaitMs: nonNegativeInteger('ordering.maxBacklogWaitMs', ordering.maxBacklogWaitMs ?? 600_000),
    maxBufferedPerResource: positiveInteger('ordering.maxBufferedPerResource', ordering.maxBufferedPerResource ?? 1_000),
    maxBuffered: positiveInteger('ordering.maxBuffered', ordering.maxBuffered ?? 100_000),
    unknownStart,
    positionRefreshMs: positiveInteger('ordering.positionRefreshMs', ordering.positionRefreshMs ?? Math.min(1_000, maxWaitMs)),
    positionCacheSize: positiveInteger('ordering.positionCacheSize', ordering.positionCacheSize ?? 10_000),
    failOpen,
  };
}

/**
 * `ordering.filteredMessages` as a per-resource-type test: `true` / `false` for every type, or the
 * subscription's `messages` (§2.4 MessageSubscription): a type whose `types` are set is filtered,
 * one with `types` empty or absent covers all messages of the resource (unfiltered).
 */
function filteredMessagesOf(declared: OrderingOptions['filteredMessages']): (resourceTypeId: string) => boolean {
  if (declared === undefined || typeof declared === 'boolean') {
    const all = declared ?? false;
    return () => all;
  }
  if (!Array.isArray(declared)) throw new RangeError("ordering.filteredMessages must be a boolean or the subscription's messages array");
  const filtered = new Set<string>();
  for (const subscription of declared as readonly MessageFilter[]) {
    if (typeof subscription?.resourceTypeId !== 'string') throw new RangeError('ordering.filteredMessages entries need a resourceTypeId');
    if ((subscription.types?.length ?? 0) > 0) filtered.add(subscription.resourceTypeId);
  }
  return (resourceTypeId) => filtered.has(resourceTypeId);
}
