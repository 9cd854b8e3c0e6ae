import type { Subscription } from '@herald/model';
import type { Database } from '@herald/store';
import type { HealthState, HealthTransition } from '../health.js';
import type { Lease } from '../leases.js';
import type { Retry } from '../records.js';
import type { RetryPolicy } from '../retry-policy.js';
import type { ProjectSubscriptions } from '../subscription-cache.js';
import type { DropReason } from '../types.js';
import type { BatchOutcome } from './batch.js';
import type { RecoveryPacer } from './recovery.js';

/** What recording outcomes needs of the sender's dependencies. */
export interface OutcomeDeps {
  db: Database;
  policy: RetryPolicy;
  /** [0, 1) for retry jitter. */
  random: () => number;
  /** How often a subscription's backlog may be made due after a recovery (recovery.ts). */
  pacer: RecoveryPacer;
}

/** One subscription's batch, sent, its outcomes sorted: what is recorded. */
export interface SentBatch {
  lease: Lease;
  subscription: Subscription;
  project: ProjectSubscriptions;
  /** When the send began (the injected clock's time). */
  sentAt: Date;
  /** The time of the record. */
  now: Date;
  sorted: BatchOutcome;
}

export interface HealthChange {
  before: HealthState;
  transition: HealthTransition;
}

/** What was written for a batch. */
export interface RecordedBatch {
  /** The outcomes as recorded: failures at a replaced destination were given back instead. */
  outcome: BatchOutcome;
  destinationReplaced: boolean;
  /** The subscription's health, when this batch read (and maybe moved) it. */
  health: HealthChange | undefined;
  /** Retries written (not those whose lease had expired: another worker has them). */
  retries: Retry[];
  drops: ReadonlyMap<DropReason, number>;
  /** Backed-off deliveries made due because this batch proved the destination accepts again (recovery.ts). */
  madeDue: number;
}

/** The pacer's and the logs' name of the batch's subscription. */
export function subscriptionKey(batch: SentBatch): string {
  return `${batch.project.projectKey}\u0000${batch.subscription.id}`;
}

/** §3.3 ConfigurationError window of the batch's project (24 h production, 1 h otherwise). */
export function configurationWindowMs(deps: OutcomeDeps, batch: SentBatch): number {
  return deps.policy.windows.configurationMs[batch.project.environment];
}
