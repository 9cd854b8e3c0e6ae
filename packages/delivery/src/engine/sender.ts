import type { Clock, Destination, Format, Subscription } from '@herald/model';
import type { Database } from '@herald/store';
import type { Logger } from 'pino';
import { errorMessage } from '../destinations/failure.js';
import { failed, type DeliveryFailure, type EncodedMessage, type EncodeContext, type SendOutcome } from '../destinations/port.js';
import type { DeliveryFormat } from '../format/formatted.js';
import type { DeliveryMetrics } from '../metrics/delivery-metrics.js';
import { openDestination, plainSecretBox, type SecretBox } from '../secrets/index.js';
import type { DestinationAdapterSource } from './adapters.js';
import { anyQueueAwake, bySubscription, claimDue, type Lease } from './leases.js';
import { sortOutcomes } from './outcomes/batch.js';
import type { SentBatch } from './outcomes/context.js';
import { recordBatch } from './outcomes/record.js';
import { RecoveryPacer } from './outcomes/recovery.js';
import { reportBatch } from './outcomes/report.js';
import { dropLeased, type Drop } from './records.js';
import type { RetryPolicy } from './retry-policy.js';
import type { SubscriptionCache } from './subscription-cache.js';
import type { LeasedDelivery, SubscriptionRef } from './types.js';

export interface SenderOptions {
  /** Names this worker in `lease_owner`; unique per process. */
  workerId: string;
  /** Deliveries claimed per lease (the adapter splits them into native batches). */
  batchSize: number;
  /** Lease length; must exceed `sendTimeoutMs` so a live worker never loses its lease mid-send. */
  leaseMs: number;
  /** Upper bound of one adapter `send` call. */
  sendTimeoutMs: number;
}

export interface SenderDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  cache: SubscriptionCache;
  adapters: DestinationAdapterSource;
  policy: RetryPolicy;
  metrics?: DeliveryMetrics;
  /** Opens the destination secrets sealed at rest (HERALD_SECRET_KEY); plain when absent. */
  secrets?: SecretBox;
  /** [0, 1) for retry jitter; injected so tests can fix it. */
  random?: () => number;
}

export interface SendResult {
  claimed: number;
  delivered: number;
  retried: number;
  dropped: number;
  /** Given back without counting an attempt: the worker is stopping, or the batch went to a replaced destination. */
  released: number;
  /** Backed-off deliveries made due because the destination accepts again (outcomes/recovery.ts): claim again now. */
  madeDue: number;
}

const NOTHING: SendResult = Object.freeze({ claimed: 0, delivered: 0, retried: 0, dropped: 0, released: 0, madeDue: 0 });

const PLATFORM_FORMAT: Format = { type: 'Platform' };

/**
 * Step 3 of the data flow: claims due deliveries under a lease, groups them by subscription,
 * encodes each with the subscription's format, sends them through the destination's adapter and
 * records the outcomes (`outcomes/`): acknowledged deliveries are deleted, failures feed the §3.3
 * health state machine and are rescheduled with backoff or dropped with their reason (§6.2).
 */
export class Sender {
  private readonly random: () => number;
  /** A subscription-level backoff for making backlogs due after recoveries: the policy's own bounds. */
  private readonly pacer: RecoveryPacer;
  /** Destinations with their secrets opened, per subscription and stored destination (decrypting once). */
  private readonly opened = new Map<string, { key: string; destination: Destination }>();
  /** Whether the last claim filled a lease (see `claim`). */
  private lastClaimFull = false;

  constructor(
    private readonly deps: SenderDeps,
    private readonly options: SenderOptions,
  ) {
    if (!(options.leaseMs > options.sendTimeoutMs)) {
      throw new RangeError(`leaseMs (${options.leaseMs}) must exceed sendTimeoutMs (${options.sendTimeoutMs})`);
    }
    this.random = deps.random ?? Math.random;
    this.pacer = new RecoveryPacer({ minGapMs: deps.policy.backoff.initialMs, maxGapMs: deps.policy.backoff.maxMs });
  }

  get workerId(): string {
    return this.options.workerId;
  }

  /** Claims and delivers one lease's worth of due deliveries. */
  async sendOnce(signal?: AbortSignal): Promise<SendResult> {
    const lease = await this.claim();
    return lease === undefined ? NOTHING : this.deliver(lease, signal);
  }

  /** Claims a lease's worth of due deliveries, none of the `excluded` subscriptions'. */
  async claim(excluded: readonly SubscriptionRef[] = []): Promise<Lease | undefined> {
    const now = this.deps.clock.now();
    // A worker's idle polls (and the claims after sends, while the router hands its deliveries
    // over itself) mostly find nothing: they first ask whether anything could be due, cheaply.
    // After a full lease more is likely waiting, so the claim goes straight out.
    if (!this.lastClaimFull && !(await anyQueueAwake(this.deps.db, now))) return undefined;
    const expiresAt = new Date(now.getTime() + this.options.leaseMs);
    const lease = await claimDue(this.deps.db, this.options.workerId, now, expiresAt, this.options.batchSize, excluded);
    this.lastClaimFull = lease !== undefined && lease.deliveries.length >= this.options.batchSize;
    return lease;
  }

  /**
   * Sends a claimed lease, one batch per subscription, and records the outcomes. `signal` is the
   * worker's shutdown: sends it interrupts are given back (due now) rather than counted as failures.
   */
  async deliver(lease: Lease, signal?: AbortSignal): Promise<SendResult> {
    const results = await Promise.all(
      [...bySubscription(lease.deliveries).values()].map((group) =>
        this.deliverGroup(lease, group, signal).catch((error: unknown) => {
          // A database failure while recording: the lease expires and the deliveries are retried
          // (at-least-once; duplicates carry the same dedup key).
          this.deps.logger.error({ err: error, subscriptionId: group[0]?.subscriptionId }, 'recording delivery outcomes failed');
          return { ...NOTHING, claimed: group.length };
        }),
      ),
    );
    return results.reduce(
      (sum, r) => ({
        claimed: sum.claimed + r.claimed,
        delivered: sum.delivered + r.delivered,
        retried: sum.retried + r.retried,
        dropped: sum.dropped + r.dropped,
        released: sum.released + r.released,
        madeDue: sum.madeDue + r.madeDue,
      }),
      NOTHING,
    );
  }

  private async deliverGroup(lease: Lease, group: LeasedDelivery[], signal: AbortSignal | undefined): Promise<SendResult> {
    const first = group[0] as LeasedDelivery;
    const { project, subscription } = await this.deps.cache.subscription(first.projectKey, first.subscriptionId, this.deps.db);
    if (subscription === undefined) return this.dropDeleted(lease, group);
    // When the send began: a recovery recorded after it makes its temporary failures old news.
    const sentAt = this.deps.clock.now();
    const outcomes = await this.send(subscription, group, signal);
    return this.record({ lease, subscription, project, sentAt }, group, outcomes, signal);
  }

  /** Encodes (pure) and sends; one outcome per delivery, in order. */
  private async send(subscription: Subscription, group: LeasedDelivery[], signal: AbortSignal | undefined): Promise<SendOutcome[]> {
    let destination: Destination;
    try {
      destination = this.openedDestination(subscription);
    } catch (error) {
      // The secret was sealed with a key this process does not have: nothing to send with.
      const failure: DeliveryFailure = { class: 'configuration', code: 'SecretUnavailable', message: errorMessage(error) };
      return group.map(() => failed(failure));
    }
    const adapter = this.deps.adapters.get(destination);
    const format = subscription.format ?? PLATFORM_FORMAT;
    // Once per batch, not per delivery: the format of messages the Messages API does not have.
    const unretrievable: DeliveryFormat = format.type === 'CloudEvents' ? { ...format, messageRetrievable: false } : format;
    const context: EncodeContext = { subscriptionId: subscription.id };
    const outcomes: SendOutcome[] = new Array<SendOutcome>(group.length);
    const toSend: { index: number; message: EncodedMessage }[] = [];
    group.forEach((delivery, index) => {
      try {
        const encoded = adapter.encode(delivery.payload, delivery.messageStored ? format : unretrievable, context);
        if (encoded.ok) toSend.push({ index, message: encoded.message });
        else outcomes[index] = failed(encoded.failure);
      } catch (error) {
        outcomes[index] = failed(this.bug('encode', error, subscription));
      }
    });
    if (toSend.length === 0) return outcomes;
    let sent: SendOutcome[];
    try {
      sent = await adapter.send(
        toSend.map((entry) => entry.message),
        signal === undefined ? { timeoutMs: this.options.sendTimeoutMs } : { signal, timeoutMs: this.options.sendTimeoutMs },
      );
    } catch (error) {
      const failure = this.bug('send', error, subscription);
      sent = toSend.map(() => failed(failure));
    }
    toSend.forEach((entry, k) => {
      outcomes[entry.index] = sent[k] ?? failed({ class: 'temporary', code: 'MissingOutcome', message: 'The adapter reported no outcome' });
    });
    return outcomes;
  }

  private openedDestination(subscription: Subscription): Destination {
    const key = JSON.stringify(subscription.destination);
    const cached = this.opened.get(subscription.id);
    if (cached !== undefined && cached.key === key) return cached.destination;
    const destination = openDestination(subscription.destination, this.deps.secrets ?? plainSecretBox);
    this.opened.set(subscription.id, { key, destination });
    return destination;
  }

  /** An adapter threw: a bug, logged as such; the deliveries are retried, not lost. */
  private bug(step: 'encode' | 'send', error: unknown, subscription: Subscription): DeliveryFailure {
    this.deps.logger.error(
      { err: error, subscriptionId: subscription.id, destinationType: subscription.destination.type },
      `destination adapter threw in ${step} (a bug); retrying`,
    );
    return { class: 'temporary', code: 'AdapterError', message: errorMessage(error) };
  }

  /** Records the outcomes (outcomes/record.ts), then tells the cache, metrics and logs. */
  private async record(
    sent: Pick<SentBatch, 'lease' | 'subscription' | 'project' | 'sentAt'>,
    group: LeasedDelivery[],
    outcomes: SendOutcome[],
    signal: AbortSignal | undefined,
  ): Promise<SendResult> {
    const sorted = sortOutcomes(group, outcomes, signal?.aborted === true);
    const batch: SentBatch = { ...sent, now: this.deps.clock.now(), sorted };
    const recorded = await recordBatch({ db: this.deps.db, policy: this.deps.policy, random: this.random, pacer: this.pacer }, batch);
    reportBatch(this.deps, batch, recorded);
    let dropped = 0;
    for (const count of recorded.drops.values()) dropped += count;
    return {
      claimed: group.length,
      delivered: sorted.delivered.length,
      retried: recorded.retries.length,
      dropped,
      released: recorded.outcome.released.length,
      madeDue: recorded.madeDue,
    };
  }

  /** The subscription is gone: its deliveries are recorded as dropped (`SubscriptionDeleted`). */
  private async dropDeleted(lease: Lease, group: LeasedDelivery[]): Promise<SendResult> {
    const now = this.deps.clock.now();
    const drops: Drop[] = group.map((d) => ({
      id: d.id,
      reason: 'SubscriptionDeleted',
      attempts: d.attempts,
      firstFailureAt: d.firstFailureAt,
      error: undefined,
    }));
    const counts = await this.deps.db.transaction((tx) => dropLeased(tx, lease, drops, now));
    const dropped = counts.get('SubscriptionDeleted') ?? 0;
    const first = group[0] as LeasedDelivery;
    this.deps.metrics?.forDeleted(first.projectKey, first.subscriptionId).dropped('SubscriptionDeleted', dropped);
    return { ...NOTHING, claimed: group.length, dropped };
  }
}
