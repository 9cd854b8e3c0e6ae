import type { SequencerOptions } from '../ordering/sequencer.js';
import type { OrderingOptions, RetryOptions } from './types.js';

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

export function resolveOrdering(ordering: OrderingOptions, failOpen: boolean): SequencerOptions {
  const maxWaitMs = positiveInteger('ordering.maxWaitMs', ordering.maxWaitMs ?? 10_000);
  const unknownStart = ordering.unknownStart ?? 'wait';
  if (unknownStart !== 'wait' && unknownStart !== 'immediate') throw new RangeError(`ordering.unknownStart must be 'wait' or 'immediate'`);
  return {
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
