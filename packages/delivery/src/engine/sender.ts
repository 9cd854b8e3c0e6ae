import type { Clock, Destination, Format, Subscription, SubscriptionHealthStatus } from '@herald/model';
import type { Database, Queryable } from '@herald/store';
import { isDeepStrictEqual } from 'node:util';
import type { Logger } from 'pino';
import { errorMessage } from '../destinations/failure.js';
import { failed, type DeliveryFailure, type EncodedMessage, type EncodeContext, type SendOutcome } from '../destinations/port.js';
import type { DeliveryFormat } from '../format/formatted.js';
import type { DeliveryMetrics } from '../metrics/delivery-metrics.js';
import { openDestination, plainSecretBox, type SecretBox } from '../secrets/index.js';
import type { DestinationAdapterSource } from './adapters.js';
import { configurationWindowEnd, nextHealth, type HealthEvent, type HealthState, type HealthTransition } from './health.js';
import { bySubscription, claimDue, releaseLease, type Lease } from './leases.js';
import {
  deleteDelivered,
  deleteDeliveredSeeingHealth,
  dropAllPending,
  dropLeased,
  lockHealth,
  readAttempts,
  readStoredDestination,
  recordedError,
  reschedule,
  sameHealth,
  writeHealth,
  type Drop,
  type Retry,
} from './records.js';
import { decideAfterFailure, type RetryPolicy } from './retry-policy.js';
import type { ProjectSubscriptions, SubscriptionCache } from './subscription-cache.js';
import type { DropReason, LeasedDelivery, RecordedError, SubscriptionRef } from './types.js';

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
}

const NOTHING: SendResult = Object.freeze({ claimed: 0, delivered: 0, retried: 0, dropped: 0, released: 0 });

const PLATFORM_FORMAT: Format = { type: 'Platform' };

interface GroupOutcome {
  delivered: LeasedDelivery[];
  failures: { delivery: LeasedDelivery; failure: DeliveryFailure }[];
  released: LeasedDelivery[];
}

/**
 * Step 3 of the data flow: claims due deliveries under a lease, groups them by subscription,
 * encodes each with the subscription's format, sends them through the destination's adapter and
 * records the outcomes — acknowledged deliveries are deleted, failures feed the §3.3 health state
 * machine and are rescheduled with backoff or dropped with their reason (§6.2 retry windows).
 */
export class Sender {
  private readonly random: () => number;
  /** Destinations with their secrets opened, per subscription and stored destination (decrypting once). */
  private readonly opened = new Map<string, { key: string; destination: Destination }>();

  constructor(
    private readonly deps: SenderDeps,
    private readonly options: SenderOptions,
  ) {
    if (!(options.leaseMs > options.sendTimeoutMs)) {
      throw new RangeError(`leaseMs (${options.leaseMs}) must exceed sendTimeoutMs (${options.sendTimeoutMs})`);
    }
    this.random = deps.random ?? Math.random;
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
    const expiresAt = new Date(now.getTime() + this.options.leaseMs);
    return claimDue(this.deps.db, this.options.workerId, now, expiresAt, this.options.batchSize, excluded);
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
      }),
      NOTHING,
    );
  }

  private async deliverGroup(lease: Lease, group: LeasedDelivery[], signal: AbortSignal | undefined): Promise<SendResult> {
    const first = group[0] as LeasedDelivery;
    const { project, subscription } = await this.deps.cache.subscription(first.projectKey, first.subscriptionId, this.deps.db);
    if (subscription === undefined) return this.dropDeleted(lease, group);
    const outcomes = await this.send(subscription, group, signal);
    return this.record(lease, group, outcomes, subscription, project, signal);
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
      outcomes[entry.index] =
        sent[k] ?? failed({ class: 'temporary', code: 'MissingOutcome', message: 'The adapter reported no outcome' });
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

  private async record(
    lease: Lease,
    group: LeasedDelivery[],
    outcomes: SendOutcome[],
    subscription: Subscription,
    project: ProjectSubscriptions,
    signal: AbortSignal | undefined,
  ): Promise<SendResult> {
    const { clock, db, policy } = this.deps;
    const now = clock.now();
    const sorted = sortOutcomes(group, outcomes, signal?.aborted === true);
    const projectKey = project.projectKey;
    const subscriptionId = subscription.id;
    const cachedStatus = project.health.get(subscriptionId) ?? 'Healthy';
    const touchesHealth =
      sorted.failures.some((f) => f.failure.class !== 'payload') || (sorted.delivered.length > 0 && cachedStatus !== 'Healthy');
    const configurationWindowMs = policy.windows.configurationMs[project.environment];

    if (sorted.failures.length === 0 && sorted.released.length === 0 && !touchesHealth) {
      // The common case: everything acknowledged, subscription healthy as far as this worker knows.
      // One statement, no transaction; it also tells whether another worker recorded a failure
      // since this worker's subscriptions were read, in which case this success heals it.
      const unhealthy = await deleteDeliveredSeeingHealth(db, ids(sorted.delivered), projectKey, subscriptionId);
      if (unhealthy) await this.healAfterSuccess(projectKey, subscriptionId, now, configurationWindowMs);
      this.observe(projectKey, subscription, now, sorted, [], new Map());
      return { claimed: group.length, delivered: sorted.delivered.length, retried: 0, dropped: 0, released: 0 };
    }

    const written = await db.transaction(async (tx) => {
      // The health row first, then delivery rows: the maintenance sweep and forgetSubscription take
      // them in that order too, so two of them never wait for each other (a deadlock).
      let before: HealthState | undefined;
      let transition: HealthTransition | undefined;
      if (touchesHealth) before = await lockHealth(tx, projectKey, subscriptionId, now);
      // Read after the health lock: markDestinationChanged takes that lock after the new destination
      // is stored, so a change it has recorded is seen here, before its Healthy is overwritten.
      const destinationReplaced = sorted.failures.length > 0 && (await sentToReplacedDestination(tx, projectKey, subscription));
      const outcome = destinationReplaced ? withFailuresGivenBack(sorted) : await withStoredAttempts(tx, lease, sorted);
      if (before !== undefined) {
        transition = applyEvents(before, healthEvents(outcome), { now, configurationWindowMs });
        if (!sameHealth(before, transition.state)) await writeHealth(tx, projectKey, subscriptionId, transition.state, now);
      }
      await deleteDelivered(tx, ids(outcome.delivered));
      await releaseLease(tx, lease, ids(outcome.released), now);
      if (transition?.dropPending === true) {
        // §3.3: entering ConfigurationErrorDeliveryStopped drops every undelivered message. This
        // batch's failures first, so that their records include the attempt just made (dropAllPending
        // only knows the rows, which do not count it yet); payload failures under their own reason.
        const stopped: DropReason = 'ConfigurationErrorDeliveryStopped';
        const batchDrops: Drop[] = outcome.failures.map(({ delivery, failure }) => ({
          id: delivery.id,
          reason: failure.class === 'payload' ? 'PayloadError' : stopped,
          ...failedAttempt(delivery, failure, now),
        }));
        const drops = await dropLeased(tx, lease, batchDrops, now);
        const count = await dropAllPending(tx, projectKey, subscriptionId, stopped, transition.state.lastError, now);
        if (count > 0) drops.set(stopped, (drops.get(stopped) ?? 0) + count);
        return { outcome, destinationReplaced, before, transition, retries: [] as Retry[], drops };
      }
      // A success in this batch has already left any error state (§3.3 "new message delivered
      // successfully → Healthy"): the batch's failures are judged by the status after it, so a
      // stopped subscription's failure is retried in the fresh window rather than dropped as stopped.
      const statusOfFailures: SubscriptionHealthStatus = outcome.delivered.length > 0 ? 'Healthy' : (before?.status ?? cachedStatus);
      const windowEnd = transition === undefined ? undefined : configurationWindowEnd(transition.state, configurationWindowMs);
      const { retries, drops } = this.planFailures(outcome.failures, { now, status: statusOfFailures, configurationWindowEndsAt: windowEnd });
      const rescheduled = await reschedule(tx, lease, retries);
      const dropped = await dropLeased(tx, lease, drops, now);
      return { outcome, destinationReplaced, before, transition, retries: rescheduled, drops: dropped };
    });

    if (written.destinationReplaced) {
      // This worker sent with a subscription older than its document: read it again before the
      // given-back deliveries are claimed, so that they go to the new destination.
      this.deps.cache.invalidate(projectKey);
      this.deps.logger.debug({ projectKey, subscriptionId, givenBack: sorted.failures.length }, 'failures at a replaced destination given back');
    }
    this.observe(projectKey, subscription, now, sorted, written.retries, written.drops);
    const firstFailure = sorted.failures[0];
    if (firstFailure !== undefined) {
      this.deps.logger.debug(
        { projectKey, subscriptionId, failed: sorted.failures.length, error: recordedError(firstFailure.failure) },
        'delivery attempts failed',
      );
    }
    if (written.transition !== undefined && written.before !== undefined) {
      this.reportHealth(projectKey, subscriptionId, written.before, written.transition);
    }
    let dropped = 0;
    for (const count of written.drops.values()) dropped += count;
    return {
      claimed: group.length,
      delivered: sorted.delivered.length,
      retried: written.retries.length,
      dropped,
      released: written.outcome.released.length,
    };
  }

  /**
   * §3.3 "configuration fixed → Healthy" for a success sent on a stale cached status. Only a state
   * whose last failure is not newer than this success is healed: a failure another worker recorded
   * after it is news this success does not answer.
   */
  private async healAfterSuccess(projectKey: string, subscriptionId: string, now: Date, configurationWindowMs: number): Promise<void> {
    const healed = await this.deps.db.transaction(async (tx) => {
      const before = await lockHealth(tx, projectKey, subscriptionId, now);
      const lastNews = before.lastErrorAt ?? before.since;
      if (before.status === 'Healthy' || lastNews.getTime() > now.getTime()) return undefined;
      const transition = applyEvents(before, [{ type: 'delivered' }], { now, configurationWindowMs });
      await writeHealth(tx, projectKey, subscriptionId, transition.state, now);
      return { before, transition };
    });
    if (healed !== undefined) this.reportHealth(projectKey, subscriptionId, healed.before, healed.transition);
  }

  /** Each failed delivery is rescheduled or dropped (§6.2 retry windows, §3.3). */
  private planFailures(
    failures: GroupOutcome['failures'],
    context: { now: Date; status: SubscriptionHealthStatus; configurationWindowEndsAt: Date | undefined },
  ): { retries: Retry[]; drops: Drop[] } {
    const retries: Retry[] = [];
    const drops: Drop[] = [];
    for (const { delivery, failure } of failures) {
      const { attempts, firstFailureAt, error } = failedAttempt(delivery, failure, context.now);
      const decision = decideAfterFailure(this.deps.policy, failure, { ...context, failures: attempts, firstFailureAt, random: this.random });
      if (decision.action === 'retry') retries.push({ id: delivery.id, dueAt: decision.dueAt, firstFailureAt, error });
      else drops.push({ id: delivery.id, reason: decision.reason, attempts, firstFailureAt, error });
    }
    return { retries, drops };
  }

  private reportHealth(projectKey: string, subscriptionId: string, before: HealthState, transition: HealthTransition): void {
    const to = transition.state;
    this.deps.cache.noteHealth(projectKey, subscriptionId, to.status);
    if (!transition.statusChanged) return;
    const fields = { projectKey, subscriptionId, from: before.status, to: to.status, error: to.lastError };
    // Recovery is good news; entering an error state is what operators are paged for.
    if (to.status === 'Healthy') this.deps.logger.info(fields, 'subscription health changed');
    else this.deps.logger.warn(fields, 'subscription health changed');
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

  private observe(
    projectKey: string,
    subscription: Subscription,
    now: Date,
    sorted: GroupOutcome,
    retries: readonly Retry[],
    drops: ReadonlyMap<DropReason, number>,
  ): void {
    const meter = this.deps.metrics?.forSubscription(projectKey, subscription);
    if (meter === undefined) return;
    meter.delivered(sorted.delivered.map((d) => Math.max(0, (now.getTime() - d.committedAt.getTime()) / 1000)));
    for (const cls of ['configuration', 'temporary', 'payload'] as const) {
      meter.failedAttempts(cls, sorted.failures.filter((f) => f.failure.class === cls).length);
      meter.retried(cls, retries.filter((r) => r.error.class === cls).length);
    }
    for (const [reason, count] of drops) meter.dropped(reason, count);
  }
}

const ids = (deliveries: readonly LeasedDelivery[]): number[] => deliveries.map((d) => d.id);

/** A delivery after the attempt that just failed: that attempt counts, and may be its first failure. */
function failedAttempt(
  delivery: LeasedDelivery,
  failure: DeliveryFailure,
  now: Date,
): { attempts: number; firstFailureAt: Date; error: RecordedError } {
  return { attempts: delivery.attempts + 1, firstFailureAt: delivery.firstFailureAt ?? now, error: recordedError(failure) };
}

function sortOutcomes(group: LeasedDelivery[], outcomes: SendOutcome[], stopping: boolean): GroupOutcome {
  const sorted: GroupOutcome = { delivered: [], failures: [], released: [] };
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

/**
 * Whether the batch went to a destination that `changeDestination` has replaced since this worker
 * read the subscription: a send in flight during the change, or a worker whose cache is a refresh
 * behind (§4.2 rule 3 allows both destinations during the switch-over). Stored destinations are
 * compared as stored: the gateway seals a new destination's secrets afresh, and only there.
 */
async function sentToReplacedDestination(tx: Queryable, projectKey: string, subscription: Subscription): Promise<boolean> {
  const stored = await readStoredDestination(tx, projectKey, subscription.id);
  return stored !== undefined && !isDeepStrictEqual(stored, subscription.destination);
}

/**
 * The failures judged on the attempts their rows hold now, not on the copy claimed with the lease:
 * `markDestinationChanged` may have started them afresh while this send to the new destination was
 * in flight (judged on the old history, a 2-second-old failure was dropped as its 48-hour window).
 */
async function withStoredAttempts(tx: Queryable, lease: Pick<Lease, 'owner' | 'expiresAt'>, sorted: GroupOutcome): Promise<GroupOutcome> {
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
function withFailuresGivenBack(sorted: GroupOutcome): GroupOutcome {
  return { delivered: sorted.delivered, failures: [], released: [...sorted.released, ...sorted.failures.map((f) => f.delivery)] };
}

/**
 * The health events of one batch: a delivery (if any) first, then its most telling failure — a
 * configuration failure outweighs a temporary one; payload failures say nothing about health.
 */
function healthEvents(sorted: GroupOutcome): HealthEvent[] {
  const events: HealthEvent[] = [];
  if (sorted.delivered.length > 0) events.push({ type: 'delivered' });
  const configuration = sorted.failures.find((f) => f.failure.class === 'configuration');
  const temporary = sorted.failures.find((f) => f.failure.class === 'temporary');
  if (configuration !== undefined) events.push({ type: 'configurationFailure', error: recordedError(configuration.failure) });
  else if (temporary !== undefined) events.push({ type: 'temporaryFailure', error: recordedError(temporary.failure) });
  return events;
}

function applyEvents(state: HealthState, events: readonly HealthEvent[], context: Parameters<typeof nextHealth>[2]): HealthTransition {
  let result: HealthTransition = { state, statusChanged: false, dropPending: false };
  for (const event of events) {
    const next = nextHealth(result.state, event, context);
    result = {
      state: next.state,
      statusChanged: result.statusChanged || next.statusChanged,
      dropPending: result.dropPending || next.dropPending,
    };
  }
  // A status that went somewhere and came back is not a change.
  return { ...result, statusChanged: result.state.status !== state.status };
}
