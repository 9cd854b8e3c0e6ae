import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { deduplicationKey, resourceStreamKey, type DeliveryPayload } from '@herald/model';
import { systemClock, type Clock } from '../clock.js';
import { instrumentStore } from '../dedup/instrumented-store.js';
import { LeaseKeeper } from '../dedup/lease-keeper.js';
import { MicroBatcher } from '../micro-batcher.js';
import { positiveInteger, resolveOrdering, resolveRetry, type ResolvedRetry } from './options.js';
import { TaskLimiter } from './task-limiter.js';
import type { ClaimRequest, ClaimResult, CompleteRequest, DedupStore, LeaseRef, PositionLane, PositionRef, StreamPositions } from '../dedup/dedup-store.js';
import type { Delivery, DeliverySource, MessageDelivery } from '../delivery.js';
import { silentLogger, type Logger } from '../logger.js';
import { createConsumerMetrics, silentMetrics, type ConsumerMetrics, type DeferReason } from '../metrics/consumer-metrics.js';
import type { GapNotice } from '../ordering/gap-notice.js';
import { orderKeyOf } from '../ordering/order-rules.js';
import { Sequencer, type FinishReport, type RejectReason, type Release, type SequencedItem } from '../ordering/sequencer.js';
import { loadNotIncludedPayload, type MessageFetcher } from '../parse/messages-api.js';
import { parseDelivery, type SingleParseResult } from '../parse/parse-delivery.js';
import type { ParseError } from '../parse/parse-error.js';
import type { RawDelivery } from '../parse/raw-delivery.js';
import type {
  Consumer,
  ConsumerOptions,
  DeliveryContext,
  DeliveryHandler,
  DeliveryOutcome,
  ItemOutcome,
  ParseErrorDecision,
  ParseErrorPolicy,
  ProcessOutcome,
  Settlement,
} from './types.js';

/** The handler's context; the abort signal is made only if the handler asks (it costs microseconds). */
class HandlerContext implements DeliveryContext {
  readonly dedupKey: string;
  readonly streamKey: string;
  readonly deliveryAttempt: number | undefined;

  constructor(
    work: Work,
    readonly gap: GapNotice | undefined,
    private readonly leases: LeaseKeeper | undefined,
  ) {
    this.dedupKey = work.key;
    this.streamKey = work.stream;
    this.deliveryAttempt = work.deliveryAttempt;
  }

  get signal(): AbortSignal {
    return this.leases ? this.leases.signalFor(this.dedupKey) : NEVER_ABORTED;
  }
}

/** One delivery on its way through the consumer. */
class Work implements SequencedItem {
  readonly promise: Promise<DeliveryOutcome>;
  resolve!: (outcome: DeliveryOutcome) => void;

  constructor(
    readonly key: string,
    readonly stream: string,
    readonly lane: PositionLane,
    readonly ordinal: number,
    readonly payload: DeliveryPayload,
    readonly delivery: Delivery,
    readonly source: DeliverySource,
    readonly deliveryAttempt: number | undefined,
  ) {
    this.promise = new Promise((resolve) => {
      this.resolve = resolve;
    });
  }
}

/**
 * Store calls are sent when this many requests are waiting, or at the end of the event loop turn.
 * Small on purpose: a batch sent early lets Redis work while this process goes on with its turn
 * (500 waited for the turn's end and measured up to 40% slower in bench/pipeline.bench.ts).
 */
const STORE_BATCH_SIZE = 64;
const defaultParseErrorPolicy: ParseErrorPolicy = () => 'dead-letter';
const ignoreResult = (): void => undefined;
const NEVER_ABORTED = new AbortController().signal;

class HeraldConsumer implements Consumer {
  readonly instanceId: string;
  private readonly handler: DeliveryHandler;
  private readonly store: DedupStore;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly metrics: ConsumerMetrics;
  private readonly onParseError: ParseErrorPolicy;
  private readonly fetchMessage: MessageFetcher | undefined;
  private readonly failOpen: boolean;
  private readonly retry: ResolvedRetry;
  private readonly sequencer: Sequencer | undefined;
  private readonly limiter: TaskLimiter;
  private readonly leases: LeaseKeeper;
  private readonly claims: MicroBatcher<ClaimRequest, ClaimResult>;
  private readonly completions: MicroBatcher<CompleteRequest, void>;
  private readonly releases: MicroBatcher<LeaseRef, void>;
  private readonly positions: MicroBatcher<string, StreamPositions>;
  /** Deliveries between arrival and settlement, by dedup key: a second copy waits for the first. */
  private readonly inProcess = new Map<string, Work>();
  private closing = false;

  constructor(options: ConsumerOptions) {
    this.instanceId = options.instanceId ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
    if (this.instanceId.includes('|')) throw new RangeError('instanceId must not contain "|"');
    this.handler = options.handler;
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? silentLogger;
    this.metrics = options.metrics ? createConsumerMetrics(options.metrics.registry) : silentMetrics;
    this.store = options.metrics ? instrumentStore(options.dedup, this.metrics) : options.dedup;
    this.onParseError = options.onParseError ?? defaultParseErrorPolicy;
    this.fetchMessage = options.fetchMessage;
    this.failOpen = options.failOpen ?? false;
    this.retry = resolveRetry(options.retry);
    this.limiter = new TaskLimiter(positiveInteger('concurrency', options.concurrency ?? 16));
    this.leases = new LeaseKeeper({ store: this.store, clock: this.clock, logger: this.logger }, this.instanceId);
    this.claims = new MicroBatcher((requests) => this.store.claim(requests), STORE_BATCH_SIZE);
    this.completions = new MicroBatcher(async (requests): Promise<void[]> => {
      await this.store.complete(requests);
      return [];
    }, STORE_BATCH_SIZE);
    this.releases = new MicroBatcher(async (leases): Promise<void[]> => {
      await this.store.release(leases);
      return [];
    }, STORE_BATCH_SIZE);
    this.positions = new MicroBatcher((streams) => this.store.readPositions(streams), STORE_BATCH_SIZE);

    if (options.ordering) {
      this.sequencer = new Sequencer(
        {
          clock: this.clock,
          logger: this.logger,
          readPositions: (stream) => this.positions.submit(stream),
          release: (item, how) => this.run(item as Work, how),
          reject: (item, reason) => this.rejected(item as Work, reason),
          observe: {
            bufferDepth: (depth) => this.metrics.bufferDepth(depth),
            bufferWait: (lane, seconds) => this.metrics.bufferWait(lane, seconds),
            gap: (lane, reason) => this.metrics.gap(lane, reason),
          },
        },
        resolveOrdering(options.ordering, this.failOpen),
      );
    }
  }

  get bufferedCount(): number {
    return this.sequencer?.bufferedCount ?? 0;
  }

  async process(raw: RawDelivery, settlement?: Settlement): Promise<ProcessOutcome> {
    const parsed = parseDelivery(raw);
    let items: ItemOutcome[];
    if (parsed.kind === 'batch') {
      items = await Promise.all(parsed.items.map((item) => this.processItem(item, raw)));
    } else {
      items = [await this.processItem(parsed, raw)];
    }
    const outcome = combine(items);
    if (settlement) await this.settle(settlement, outcome);
    return outcome;
  }

  async close(): Promise<void> {
    this.closing = true;
    this.sequencer?.close();
    const running = [...this.inProcess.values()].map((work) => work.promise);
    await Promise.all(running);
    await this.limiter.onIdle();
    this.leases.stop();
  }

  private processItem(parsed: SingleParseResult, raw: RawDelivery): Promise<ItemOutcome> {
    return parsed.kind === 'error' ? this.rejectInput(parsed.error, raw) : this.admit(parsed.delivery, raw);
  }

  private async rejectInput(error: ParseError, raw: RawDelivery): Promise<ItemOutcome> {
    this.metrics.parseError(error.source, error.reason);
    let decision: ParseErrorDecision;
    try {
      decision = await this.onParseError(error, raw);
    } catch (policyError) {
      this.logger.error({ err: policyError }, 'onParseError threw; the input will be retried');
      decision = 'retry';
    }
    this.logger.info({ parseError: error, decision }, 'input is not a delivery');
    return { status: 'parse-error', error, decision };
  }

  private admit(delivery: Delivery, raw: RawDelivery): Promise<DeliveryOutcome> {
    const payload = delivery.payload;
    const source = delivery.origin.source;
    this.metrics.delivery('received', source, payload.notificationType, payload.resource.typeId);
    if (delivery.origin.sentAt !== undefined) this.metrics.queueWait(source, (this.clock.now() - delivery.origin.sentAt) / 1000);

    const key = deduplicationKey(payload, this.store.keyPrefix);
    if (this.closing) {
      return Promise.resolve(this.count({ status: 'deferred', dedupKey: key, reason: 'closing', retryAfterMs: 0 }, delivery));
    }
    const inFlight = this.inProcess.get(key);
    if (inFlight !== undefined) {
      // A copy of a delivery already here: it is settled like the first one (never run twice,
      // never acknowledged before the first is done).
      return inFlight.promise.then((outcome) =>
        this.count(outcome.status === 'processed' ? { status: 'duplicate', dedupKey: key } : outcome, delivery),
      );
    }
    const order = orderKeyOf(payload);
    const work = new Work(key, resourceStreamKey(payload), order.lane, order.ordinal, payload, delivery, source, raw.deliveryAttempt);
    this.inProcess.set(key, work);
    if (this.sequencer) this.sequencer.submit(work);
    else this.run(work, { kind: 'next' });
    return work.promise;
  }

  /** A Work is its own PositionRef (stream, lane, ordinal); no position without ordering. */
  private positionOf(work: Work): PositionRef | undefined {
    return this.sequencer ? work : undefined;
  }

  /** Released by the sequencer (or at once without ordering): claim, then run or settle. */
  private run(work: Work, how: Release): void {
    this.claims.enqueue({ key: work.key, owner: this.instanceId, position: this.positionOf(work) }, (error, claim) => {
      if (error === undefined) return this.claimed(work, how, claim as ClaimResult);
      this.logger.warn({ err: error, dedupKey: work.key }, 'dedup store unreachable');
      if (!this.failOpen) this.finish(work, this.deferral(work, 'store-unavailable'), { advanced: false });
      else if (how.kind === 'behind') this.finish(work, { status: 'stale', dedupKey: work.key }, { advanced: false });
      else this.execute(work, how, false);
    });
  }

  private claimed(work: Work, how: Release, claim: ClaimResult): void {
    switch (claim.status) {
      case 'processed':
        return this.finish(work, { status: 'duplicate', dedupKey: work.key }, { advanced: true });
      case 'stale':
        return this.finish(work, { status: 'stale', dedupKey: work.key }, { advanced: false, storedOrdinal: claim.storedOrdinal });
      case 'busy':
        // Another instance runs it (or crashed while running it): retry once its lease may be gone.
        return this.finish(
          work,
          { status: 'deferred', dedupKey: work.key, reason: 'busy', retryAfterMs: Math.max(this.retry.busyMinMs, claim.retryAfterMs) },
          { advanced: false },
        );
      case 'claimed':
        if (how.kind === 'behind') {
          // Behind the position this instance released, yet unknown to the store (its position
          // was lost or never written): it was skipped here, so it stays skipped.
          this.releases.enqueue({ key: work.key, owner: this.instanceId }, ignoreResult);
          return this.finish(work, { status: 'stale', dedupKey: work.key }, { advanced: false });
        }
        return this.execute(work, how, true);
    }
  }

  private execute(work: Work, how: Release, leased: boolean): void {
    if (leased) this.leases.hold(work.key);
    const context = new HandlerContext(work, how.kind === 'gap' ? how.gap : undefined, leased ? this.leases : undefined);
    this.limiter.schedule(() => this.runHandler(work, context, leased));
  }

  /** Runs the handler; a synchronous handler costs no promise at all (the hot path of simple handlers). */
  private runHandler(work: Work, context: DeliveryContext, leased: boolean): void {
    const delivery = work.delivery;
    if (delivery.notificationType === 'Message' && delivery.payloadNotIncluded !== undefined && this.fetchMessage !== undefined) {
      this.completePayload(delivery, context).then(
        (completed) => this.invokeHandler(work, completed, context, leased),
        (error: unknown) => this.handlerEnded(work, leased, error, false),
      );
      return;
    }
    this.invokeHandler(work, delivery, context, leased);
  }

  private invokeHandler(work: Work, delivery: Delivery, context: DeliveryContext, leased: boolean): void {
    const startedAt = performance.now();
    let result: Promise<void> | void;
    try {
      result = this.handler(delivery, context);
    } catch (error) {
      return this.handlerEnded(work, leased, error, false, startedAt);
    }
    if (result !== undefined && typeof (result as Promise<void>).then === 'function') {
      (result as Promise<void>).then(
        () => this.handlerEnded(work, leased, undefined, true, startedAt),
        (error: unknown) => this.handlerEnded(work, leased, error, false, startedAt),
      );
    } else {
      this.handlerEnded(work, leased, undefined, true, startedAt);
    }
  }

  private handlerEnded(work: Work, leased: boolean, error: unknown, succeeded: boolean, startedAt?: number): void {
    if (startedAt !== undefined) {
      this.metrics.handlerDuration(work.payload.notificationType, work.payload.resource.typeId, (performance.now() - startedAt) / 1000);
    }
    this.limiter.done();
    if (succeeded) this.succeeded(work, leased);
    else this.failed(work, leased, error);
  }

  private async completePayload(delivery: MessageDelivery, context: DeliveryContext): Promise<Delivery> {
    if (this.fetchMessage === undefined) return delivery;
    context.signal.throwIfAborted();
    const completed = await loadNotIncludedPayload(delivery, this.fetchMessage);
    if (completed === delivery) {
      this.logger.warn({ messageId: delivery.payload.id }, 'message with payloadNotIncluded is not in the Messages API; handler gets it without payload');
    }
    return completed;
  }

  private succeeded(work: Work, leased: boolean): void {
    // The next delivery of the resource may start now, while this one is being recorded: its claim
    // and this record travel together, so a resource advances one round trip per delivery instead
    // of two. Safe: should this process die before the record lands, this delivery's lease expires
    // and it runs again before anything later can be recorded past it elsewhere (at-least-once).
    this.sequencer?.finished(work, { advanced: true });
    this.completions.enqueue({ key: work.key, position: this.positionOf(work) }, (error) => {
      if (error !== undefined) {
        // The handler's effects are done: acknowledging loses nothing, while a retry would only run
        // it again. What is lost is the record (a later copy could run again) and, for other
        // instances, the position (they wait up to maxWaitMs, then move on).
        this.logger.error({ err: error, dedupKey: work.key }, 'handler succeeded but could not be recorded as processed');
      }
      if (leased) this.leases.drop(work.key);
      this.finish(work, { status: 'processed', dedupKey: work.key }, undefined);
    });
  }

  private failed(work: Work, leased: boolean, error: unknown): void {
    this.logger.warn({ err: error, dedupKey: work.key }, 'handler failed; the delivery will be retried');
    const attempt = Math.max(1, work.deliveryAttempt ?? 1);
    const retryAfterMs = Math.min(this.retry.failureMaxMs, this.retry.failureBaseMs * 2 ** (attempt - 1));
    const settle = (): void => this.finish(work, { status: 'failed', dedupKey: work.key, error, retryAfterMs }, { advanced: false, failed: true });
    if (!leased) return settle();
    this.leases.drop(work.key);
    this.releases.enqueue({ key: work.key, owner: this.instanceId }, (releaseError) => {
      // If it could not be released, the lease expires on its own; the retry waits for that.
      if (releaseError !== undefined) this.logger.warn({ err: releaseError, dedupKey: work.key }, 'could not release the lease');
      settle();
    });
  }

  private rejected(work: Work, reason: RejectReason): void {
    this.finish(work, this.deferral(work, reason), undefined);
  }

  private deferral(work: Work, reason: DeferReason): DeliveryOutcome {
    const retryAfterMs =
      reason === 'store-unavailable' ? this.retry.storeUnavailableMs : reason === 'buffer-full' ? this.retry.bufferFullMs : reason === 'busy' ? this.retry.busyMinMs : 0;
    return { status: 'deferred', dedupKey: work.key, reason, retryAfterMs };
  }

  /** Settles a delivery: metrics, ordering bookkeeping, then the waiting `process` call. */
  private finish(work: Work, outcome: DeliveryOutcome, report: FinishReport | undefined): void {
    this.inProcess.delete(work.key);
    if (report !== undefined) this.sequencer?.finished(work, report);
    work.resolve(this.count(outcome, work.delivery));
  }

  private count(outcome: DeliveryOutcome, delivery: Delivery): DeliveryOutcome {
    const { notificationType, resource } = delivery.payload;
    const source = delivery.origin.source;
    if (outcome.status === 'deferred') this.metrics.deferred(outcome.reason);
    else this.metrics.delivery(outcome.status, source, notificationType, resource.typeId);
    return outcome;
  }

  private async settle(settlement: Settlement, outcome: ProcessOutcome): Promise<void> {
    try {
      if (outcome.action === 'ack') await settlement.ack();
      else if (outcome.action === 'nack') await settlement.nack(outcome.retryAfterMs);
      else await settlement.deadLetter(outcome.reason ?? 'not a delivery');
    } catch (error) {
      // The transport redelivers what it did not hear about; deduplication absorbs it.
      this.logger.warn({ err: error, action: outcome.action }, 'settling with the source failed');
    }
  }
}

/** One settlement for an input: retry if anything must be retried, else dead-letter poison, else ack. */
function combine(items: readonly ItemOutcome[]): ProcessOutcome {
  let retryAfterMs = -1;
  let deadLetterReason: string | undefined;
  for (const item of items) {
    if (item.status === 'failed' || item.status === 'deferred') retryAfterMs = Math.max(retryAfterMs, item.retryAfterMs);
    else if (item.status === 'parse-error') {
      if (item.decision === 'retry') retryAfterMs = Math.max(retryAfterMs, 0);
      else if (item.decision === 'dead-letter') deadLetterReason ??= `${item.error.reason}: ${item.error.message}`;
    }
  }
  if (retryAfterMs >= 0) return { action: 'nack', retryAfterMs, items };
  if (deadLetterReason !== undefined) return { action: 'dead-letter', retryAfterMs: 0, reason: deadLetterReason, items };
  return { action: 'ack', retryAfterMs: 0, items };
}

/** Creates the consumer core; feed it with a source (SQS, Service Bus, Pub/Sub, HTTP) or call `process` yourself. */
export function createConsumer(options: ConsumerOptions): Consumer {
  return new HeraldConsumer(options);
}
