import type { Queryable } from '@herald/store';
import type { HealthState } from '../health.js';
import type { BatchOutcome } from './batch.js';
import { subscriptionKey, type HealthChange, type OutcomeDeps, type SentBatch } from './context.js';

/**
 * Recovery at full speed (issue 25). During an outage each delivery backs off on its own (up to
 * `backoff.maxMs`, 10 minutes), so once the destination accepts again the backlog would trickle in
 * as those retries come due, long after health says Healthy. Instead, the batch that proves the
 * destination accepts again makes the subscription's backed-off deliveries due at once.
 *
 * What proves it: a batch with at least one delivery acknowledged and no temporary or configuration
 * failure that moved the subscription from an error status to Healthy (§3.3 "configuration fixed",
 * "new message delivered successfully"). So:
 * - a destination still failing produces no such batch: its deliveries keep their backoff;
 * - a batch where some deliveries were acknowledged and others failed temporarily (throttling, a
 *   partition still down) leaves the subscription in TemporaryError (health.ts) and moves nothing;
 * - payload failures neither prove nor disprove anything (they are the message's fault, dropped at
 *   once, and never feed health): a batch of acknowledgements and payload refusals still counts.
 *
 * Making due is not forgetting: `attempts`, `first_failure_at` and the last error stay, so the
 * §6.2 48-hour window and the §3.3 ConfigurationError window still count from the first failure,
 * and a delivery that fails again backs off from its full count of attempts.
 *
 * Sends in flight when the destination returns may fail after the recovery was recorded: they were
 * tried before it, their rows were leased (so not made due), and recording them as news would turn
 * the subscription TemporaryError again and back them off for minutes while the rest drains. Such
 * temporary failures are overtaken by the recovery (`overtakenByRecovery`): the attempt counts,
 * but they feed no health event and are due again at once — as a success older than a failure
 * heals nothing (delivered.ts `healAfterSuccess`).
 *
 * A destination that flaps (accepts, fails, accepts…) would make its whole backlog due at every
 * flap: `RecoveryPacer` lets a subscription's backlog be made due at most once per gap, a gap that
 * doubles while recoveries keep coming (a subscription-level backoff). The pacer lives in each
 * process; with N workers a flapping subscription's backlog may be made due N times per gap.
 */
export async function recoverBacklog(
  tx: Queryable,
  deps: Pick<OutcomeDeps, 'pacer'>,
  batch: SentBatch,
  outcome: BatchOutcome,
  health: HealthChange | undefined,
): Promise<number> {
  if (!provesRecovery(outcome, health) || !deps.pacer.admit(subscriptionKey(batch), batch.now)) return 0;
  return makeBackoffsDue(tx, batch.project.projectKey, batch.subscription.id, batch.now);
}

/**
 * Whether the subscription recovered (moved to Healthy from an error status) after this batch's
 * send began: its temporary failures are older news than that. A health row that was never in
 * error (no `lastErrorAt`; `lockHealth` creates rows Healthy, since now) has had no recovery.
 */
export function overtakenByRecovery(before: HealthState | undefined, sentAt: Date): boolean {
  return before?.status === 'Healthy' && before.lastErrorAt !== undefined && before.since.getTime() > sentAt.getTime();
}

/** The batch moved its subscription from an error status to Healthy with nothing but successes and payload refusals. */
export function provesRecovery(outcome: BatchOutcome, health: HealthChange | undefined): boolean {
  if (health === undefined || health.before.status === 'Healthy' || health.transition.state.status !== 'Healthy') return false;
  return outcome.delivered.length > 0 && outcome.failures.every((f) => f.failure.class === 'payload');
}

/**
 * Makes the subscription's backed-off deliveries due now (those waiting for a retry later; none a
 * worker holds leased). Lowering `due_at` lowers the subscription's `delivery_queues.wake_at`
 * through its trigger (migration 010), so the next claim finds them. Answers how many.
 */
export async function makeBackoffsDue(tx: Queryable, projectKey: string, subscriptionId: string, now: Date): Promise<number> {
  const result = await tx.query(
    `UPDATE deliveries SET due_at = $3
     WHERE project_key = $1 AND subscription_id = $2 AND due_at > $3 AND lease_owner IS NULL AND attempts > 0`,
    [projectKey, subscriptionId, now],
  );
  return result.rowCount;
}

export interface RecoveryPacerOptions {
  /** The least gap between two recoveries of one subscription (the backoff's `initialMs`). */
  minGapMs: number;
  /** The gap never grows beyond this (the backoff's `maxMs`). */
  maxGapMs: number;
}

/** Subscriptions remembered before the ones whose gap has long passed are forgotten. */
const PRUNE_ABOVE = 1_000;

/**
 * How often a subscription's backlog may be made due (see above). A recovery within the gap of the
 * last one is ignored (its deliveries keep their own backoff); one within twice the gap doubles it
 * (the destination flaps); one after that starts again from `minGapMs` (a new outage).
 */
export class RecoveryPacer {
  private readonly last = new Map<string, { at: number; gapMs: number }>();

  constructor(private readonly options: RecoveryPacerOptions) {}

  /** Whether the subscription's backlog may be made due at `now`; if so, that counts as its last recovery. */
  admit(subscriptionKey: string, now: Date): boolean {
    const at = now.getTime();
    const previous = this.last.get(subscriptionKey);
    if (previous !== undefined && at - previous.at < previous.gapMs) return false;
    const flapping = previous !== undefined && at - previous.at < 2 * previous.gapMs;
    const gapMs = flapping ? Math.min(2 * previous.gapMs, this.options.maxGapMs) : this.options.minGapMs;
    this.last.delete(subscriptionKey);
    this.last.set(subscriptionKey, { at, gapMs });
    if (this.last.size > PRUNE_ABOVE) this.prune(at);
    return true;
  }

  /** Forgets subscriptions whose next recovery would start from `minGapMs` anyway. */
  private prune(now: number): void {
    for (const [key, entry] of this.last) {
      if (now - entry.at >= 2 * entry.gapMs) this.last.delete(key);
    }
  }
}
