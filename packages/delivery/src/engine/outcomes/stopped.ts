import type { Queryable } from '@herald/store';
import type { Lease } from '../leases.js';
import { dropAllPending, dropLeased, type Drop } from '../records.js';
import type { DropReason, RecordedError } from '../types.js';
import { failedAttempt, type BatchOutcome } from './batch.js';

const STOPPED: DropReason = 'ConfigurationErrorDeliveryStopped';

/**
 * §3.3: entering ConfigurationErrorDeliveryStopped drops every undelivered message. This batch's
 * failures first, so that their records include the attempt just made (`dropAllPending` only knows
 * the rows, which do not count it yet); payload failures under their own reason.
 */
export async function recordStopped(
  tx: Queryable,
  lease: Lease,
  failures: BatchOutcome['failures'],
  stoppedWith: { projectKey: string; subscriptionId: string; lastError: RecordedError | undefined; now: Date },
): Promise<Map<DropReason, number>> {
  const { projectKey, subscriptionId, lastError, now } = stoppedWith;
  const batchDrops: Drop[] = failures.map(({ delivery, failure }) => ({
    id: delivery.id,
    reason: failure.class === 'payload' ? 'PayloadError' : STOPPED,
    ...failedAttempt(delivery, failure, now),
  }));
  const drops = await dropLeased(tx, lease, batchDrops, now);
  const count = await dropAllPending(tx, projectKey, subscriptionId, STOPPED, lastError, now);
  if (count > 0) drops.set(STOPPED, (drops.get(STOPPED) ?? 0) + count);
  return drops;
}
