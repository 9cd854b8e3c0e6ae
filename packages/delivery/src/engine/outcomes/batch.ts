import type { Subscription } from '@herald/model';
import type { Queryable } from '@herald/store';
import { isDeepStrictEqual } from 'node:util';
import type { DeliveryFailure, SendOutcome } from '../../destinations/port.js';
import type { Lease } from '../leases.js';
import { readAttempts, readStoredDestination, recordedError } from '../records.js';
import type { LeasedDelivery, RecordedError } from '../types.js';

/** One subscription's batch after its send, each delivery sorted by what came of it. */
export interface BatchOutcome {
  delivered: LeasedDelivery[];
  failures: { delivery: LeasedDelivery; failure: DeliveryFailure }[];
  /** Given back without counting an attempt. */
  released: LeasedDelivery[];
}

export function sortOutcomes(group: readonly LeasedDelivery[], outcomes: readonly SendOutcome[], stopping: boolean): BatchOutcome {
  const sorted: BatchOutcome = { delivered: [], failures: [], released: [] };
  group.forEach((delivery, index) => {
    const outcome = outcomes[index];
    if (outcome === undefined) {
      sorted.released.push(delivery);
    } else if (outcome.status === 'delivered') {
      sorted.delivered.push(delivery);
    } else if (stopping && outcome.failure.class === 'temporary') {
      // Interrupted by our own shutdown: not the destination's fault, give it back unpenalised.
      sorted.released.push(delivery);
    } else {
      sorted.failures.push({ delivery, failure: outcome.failure });
    }
  });
  return sorted;
}

export const ids = (deliveries: readonly LeasedDelivery[]): number[] => deliveries.map((d) => d.id);

/** A delivery after the attempt that just failed: that attempt counts, and may be its first failure. */
export function failedAttempt(delivery: LeasedDelivery, failure: DeliveryFailure, now: Date): { attempts: number; firstFailureAt: Date; error: RecordedError } {
  return { attempts: delivery.attempts + 1, firstFailureAt: delivery.firstFailureAt ?? now, error: recordedError(failure) };
}

/**
 * Whether the batch went to a destination that `changeDestination` has replaced since this worker
 * read the subscription: a send in flight during the change, or a worker whose cache is a refresh
 * behind (§4.2 rule 3 allows both destinations during the switch-over). Stored destinations are
 * compared as stored: the gateway seals a new destination's secrets afresh, and only there.
 */
export async function sentToReplacedDestination(tx: Queryable, projectKey: string, subscription: Subscription): Promise<boolean> {
  const stored = await readStoredDestination(tx, projectKey, subscription.id);
  return stored !== undefined && !isDeepStrictEqual(stored, subscription.destination);
}

/**
 * The failures judged on the attempts their rows hold now, not on the copy claimed with the lease:
 * `markDestinationChanged` may have started them afresh while this send to the new destination was
 * in flight (judged on the old history, a 2-second-old failure was dropped as its 48-hour window).
 */
export async function withStoredAttempts(tx: Queryable, lease: Pick<Lease, 'owner' | 'expiresAt'>, sorted: BatchOutcome): Promise<BatchOutcome> {
  if (sorted.failures.length === 0) return sorted;
  const stored = await readAttempts(tx, lease, ids(sorted.failures.map((f) => f.delivery)));
  return {
    ...sorted,
    failures: sorted.failures.map(({ delivery, failure }) => {
      const now = stored.get(delivery.id);
      return { delivery: now === undefined ? delivery : { ...delivery, ...now }, failure };
    }),
  };
}

/**
 * Failures at a replaced destination say nothing about the subscription's current one, which the
 * test notification of `changeDestination` just proved to work (§3.3 last row): they feed no health
 * event and count no attempt (no backoff); the deliveries are given back due now, for the new one.
 */
export function withFailuresGivenBack(sorted: BatchOutcome): BatchOutcome {
  return { delivered: sorted.delivered, failures: [], released: [...sorted.released, ...sorted.failures.map((f) => f.delivery)] };
}
