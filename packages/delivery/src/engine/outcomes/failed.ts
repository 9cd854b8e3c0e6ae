import type { SubscriptionHealthStatus } from '@herald/model';
import type { Queryable } from '@herald/store';
import type { Lease } from '../leases.js';
import { dropLeased, reschedule, type Drop, type Retry } from '../records.js';
import { decideAfterFailure, type RetryPolicy } from '../retry-policy.js';
import type { DropReason } from '../types.js';
import { failedAttempt, type BatchOutcome } from './batch.js';

export interface FailureJudgement {
  now: Date;
  /** The subscription's status the failures are judged by (after a success of the same batch). */
  status: SubscriptionHealthStatus;
  /** End of the ConfigurationError window, when the subscription is in (or entering) one. */
  configurationWindowEndsAt: Date | undefined;
  /** Temporary failures overtaken by a recovery (recovery.ts): retried now, not after a backoff. */
  retryTemporaryNow: boolean;
}

/**
 * Failed attempts: each is rescheduled with backoff or dropped with its reason, as its failure's
 * class decides (`decideAfterFailure`: payload → dropped at once; temporary → retried for 48 h;
 * configuration → retried within the subscription's window; §3.3, §6.2).
 */
export async function recordFailures(
  tx: Queryable,
  lease: Lease,
  failures: BatchOutcome['failures'],
  judgement: FailureJudgement,
  policy: { policy: RetryPolicy; random: () => number },
): Promise<{ retries: Retry[]; drops: Map<DropReason, number> }> {
  const planned = planFailures(failures, judgement, policy);
  const retries = await reschedule(tx, lease, planned.retries);
  const drops = await dropLeased(tx, lease, planned.drops, judgement.now);
  return { retries, drops };
}

function planFailures(
  failures: BatchOutcome['failures'],
  judgement: FailureJudgement,
  { policy, random }: { policy: RetryPolicy; random: () => number },
): { retries: Retry[]; drops: Drop[] } {
  const retries: Retry[] = [];
  const drops: Drop[] = [];
  for (const { delivery, failure } of failures) {
    const { attempts, firstFailureAt, error } = failedAttempt(delivery, failure, judgement.now);
    const decision = decideAfterFailure(policy, failure, { ...judgement, failures: attempts, firstFailureAt, random });
    const retryNow = judgement.retryTemporaryNow && failure.class === 'temporary';
    if (decision.action === 'retry') retries.push({ id: delivery.id, dueAt: retryNow ? judgement.now : decision.dueAt, firstFailureAt, error });
    else drops.push({ id: delivery.id, reason: decision.reason, attempts, firstFailureAt, error });
  }
  return { retries, drops };
}
