import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { deduplicationKey, resourceStreamKey } from '@herald/model';
import { systemClock, type Clock } from '../clock.js';
import { instrumentStore } from '../dedup/instrumented-store.js';
import { LeaseKeeper, type LeaseHolder } from '../dedup/lease-keeper.js';
import { MicroBatcher } from '../micro-batcher.js';
import { positiveInteger, resolveOrdering, resolveRetry, type ResolvedRetry } from './options.js';
import { TaskLimiter } from './task-limiter.js';
import type { ClaimRequest, ClaimResult, CompleteRequest, DedupStore, PositionLane, PositionRef, StreamPositions } from '../dedup/dedup-store.js';
import type { AnyDelivery, AnyDeliveryPayload, Delivery, MessageDelivery } from '../delivery.js';
import { eventDeduplicationKey, eventStreamKey } from '../dedup/event-keys.js';
import { createJsonLogger, type Logger } from '../logger.js';
import { createConsumerMetrics, silentMetrics, type ConsumerMetrics, type DeferReason, type DeliveryMeter } from '../metrics/consumer-metrics.js';
import type { GapNotice } from '../ordering/gap-notice.js';
import type { LateNotice } from '../ordering/late-notice.js';
import { changeOrdinal, positionValueOf } from '../ordering/order-rules.js';
import { Sequencer, type FinishReport, type RejectReason, type Release, type SequencedItem } from '../ordering/sequencer.js';
import { loadNotIncludedPayload, type MessageFetcher } from '../parse/messages-api.js';
import { parseDelivery, type ParseResult, type SingleParseResult } from '../parse/parse-delivery.js';
import type { ParseError } from '../parse/parse-error.js';
import type { RawDelivery } from '../parse/raw-delivery.js';
import type {
  Consumer,
  ConsumerOptions,
  DeliveryContext,
  DeliveryHandler,
  DeliveryOutcome,
  EventHandler,
  ItemOutcome,
  ParseErrorDecision,
  ParseErrorPolicy,
  ProcessOutcome,
  Settlement,
} from './types.js';

/** An outcome that has the source deliver it again: failed or deferred. */
type RetryOutcome = Extract<DeliveryOutcome, { readonly retryAfterMs: number }>;

/**
 * Where a delivery is (see `admit`): waiting in the sequencer for its turn; released (its turn
 * came, or at once without ordering: it proceeds once its claim answered too); or handed back by
 * the sequencer (buffer full, closing).
 */
type Stage = 'ordering' | 'released' | 'returned';

/** The claim of a delivery could not be made (the store is unreachable). */
const STORE_UNREACHABLE = Symbol('store unreachable');

/**
 * One delivery on its way through the consumer. To keep the per-delivery cost down (allocation
 * is most of it), the Work is also the store request (claim, complete and lease ref), the
 * sequencer's item and the handler's context; the abort signal is made only if the handler asks.
 */
class Work implements SequencedItem, ClaimRequest, CompleteRequest, DeliveryContext, LeaseHolder {
  /** Settles with the outcome of `process` for this one delivery (no second promise to map it). */
  readonly promise: Promise<ProcessOutcome>;
  resolve!: (outcome: ProcessOutcome) => void;
  /** The position this delivery claims and completes; the Work itself with ordering, else none. */
  readonly position: PositionRef | undefined;
  stage: Stage = 'ordering';
  /** How the sequencer released it (always `next` without ordering). */
  release: Release = NEXT;
  /** The claim's answer, once there: sent when the delivery arrives, used when it is released. */
  claim: ClaimResult | typeof STORE_UNREACHABLE | undefined;
  /** Its claim failed (store unreachable) while it waited for its turn: claimed again when released. */
  claimAgain = false;
  gap: GapNotice | undefined;
  late: LateNotice | undefined;
  /** The stream's stored position, when the claim reported it (behind it, or its predecessor): the sequencer takes it over. */
  storedOrdinal: number | undefined;
  /** Set when the handler failed or the sequencer handed it back: the outcome once the lease is released. */
  failure: RetryOutcome | undefined;
  /**
   * LeaseKeeper's marks: the claim gave this process the lease (the store was reachable) and it is
   * held and renewed until dropped; the handler's abort controller.
   */
  holding = false;
  abort: AbortController | undefined = undefined;

  constructor(
    readonly key: string,
    readonly stream: string,
    readonly lane: PositionLane,
    readonly ordinal: number,
    readonly payload: AnyDeliveryPayload,
    readonly delivery: AnyDelivery,
    readonly deliveryAttempt: number | undefined,
    readonly owner: string,
    readonly meter: DeliveryMeter,
    ordered: boolean,
    private readonly leases: LeaseKeeper,
  ) {
    this.position = ordered ? this : undefined;
    this.promise = new Promise((resolve) => {
      this.resolve = resolve;
    });
  }

  get dedupKey(): string {
    return this.key;
  }

  get streamKey(): string {
    return this.stream;
  }

  get signal(): AbortSignal {
    return this.leases.signalFor(this);
  }
}

/**
 * Store calls are sent when this many requests are waiting, or at the end of the event loop turn.
 * Small on purpose: a batch sent early lets Redis work while this process goes on with its turn
 * (500 waited for the turn's end and measured up to 40% slower in bench/pipeline.bench.ts).
 */
const STORE_BATCH_SIZE = 64;
const defaultParseErrorPolicy: ParseErrorPolicy = () => 'dead-letter';
const NEXT: Release = Object.freeze({ kind: 'next' });
const ADVANCED: FinishReport = Object.freeze({ advanced: true });

class HeraldConsumer implements Consumer {
  readonly instanceId: string;
  private readonly handler: DeliveryHandler;
  private readonly onEvent: EventHandler | undefined;
  private readonly store: DedupStore;
  private readonly clock: Clock;
  readonly logger: Logger;
  private readonly metrics: ConsumerMetrics;
  private readonly onParseError: ParseErrorPolicy;
  private readonly fetchMessage: MessageFetcher | undefined;
  private readonly failOpen: boolean;
  private readonly retry: ResolvedRetry;
  private readonly sequencer: Sequencer | undefined;
  private readonly limiter: TaskLimiter<Work>;
  private readonly leases: LeaseKeeper;
  private readonly claims: MicroBatcher<Work, ClaimResult>;
  private readonly completions: MicroBatcher<Work, void>;
  private readonly releases: MicroBatcher<Work, void>;
  /** Handler durations are timed only when metrics are on (a clock read per delivery). */
  private readonly timed: boolean;
  private readonly positions: MicroBatcher<string, StreamPositions>;
  /** Deliveries between arrival and settlement, by dedup key: a second copy waits for the first. */
  private readonly inProcess = new Map<string, Work>();
  /** Released by the sequencer with their claims answered, to proceed in a microtask (see `released`). */
  private releasedWaiting: Work[] = [];
  private closing = false;

  constructor(options: ConsumerOptions) {
    this.instanceId = options.instanceId ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
    if (this.instanceId.includes('|')) throw new RangeError('instanceId must not contain "|"');
    this.handler = options.handler;
    this.onEvent = options.onEvent;
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? createJsonLogger();
    this.metrics = options.metrics ? createConsumerMetrics(options.metrics.registry, { bufferDepth: () => this.bufferedCount }) : silentMetrics;
    this.store = options.metrics ? instrumentStore(options.dedup, this.metrics) : options.dedup;
    this.onParseError = options.onParseError ?? defaultParseErrorPolicy;
    this.fetchMessage = options.fetchMessage;
    this.failOpen = options.failOpen ?? false;
    this.retry = resolveRetry(options.retry);
    this.timed = options.metrics !== undefined;
    this.limiter = new TaskLimiter(positiveInteger('concurrency', options.concurrency ?? 16), (work) => this.runHandler(work));
    this.leases = new LeaseKeeper({ store: this.store, clock: this.clock, logger: this.logger }, this.instanceId, () => this.inProcess.values());
    this.claims = new MicroBatcher(
      (works) => this.store.claim(works),
      STORE_BATCH_SIZE,
      (work, error, claim) => this.claimAnswered(work, error, claim),
    );
    this.completions = new MicroBatcher(
      async (works): Promise<void[]> => {
        await this.store.complete(works);
        return [];
      },
      STORE_BATCH_SIZE,
      (work, error) => this.recorded(work, error),
    );
    this.releases = new MicroBatcher(
      async (works): Promise<void[]> => {
        await this.store.release(works);
        return [];
      },
      STORE_BATCH_SIZE,
      (work, error) => this.releaseAnswered(work, error),
    );
    this.positions = new MicroBatcher((streams) => this.store.readPositions(streams), STORE_BATCH_SIZE);

    if (options.ordering) {
      this.sequencer = new Sequencer(
        {
          clock: this.clock,
          logger: this.logger,
          readPositions: (stream) => this.positions.submit(stream),
          release: (item, how) => this.released(item as Work, how),
          reject: (item, reason) => this.rejected(item as Work, reason),
          observe: {
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

  noteBacklog(): void {
    this.sequencer?.noteBacklog();
  }

  returnWaiting(): number {
    return this.sequencer?.returnWaiting() ?? 0;
  }

  process(raw: RawDelivery, settlement?: Settlement): Promise<ProcessOutcome> {
    const parsed = parseDelivery(raw);
    // One delivery without a settlement (the common case): no async frame, no promise but the Work's.
    if (parsed.kind === 'delivery' && settlement === undefined) return this.admit(parsed.delivery, raw);
    return this.processParsed(parsed, raw, settlement);
  }

  async close(): Promise<void> {
    this.closing = true;
    // Running handlers are told first: close() waits for them, and a long one may be waiting for this.
    this.leases.abortAll();
    this.sequencer?.close();
    const running = [...this.inProcess.values()].map((work) => work.promise);
    await Promise.all(running);
    await this.limiter.onIdle();
    this.leases.stop();
  }

  private async processParsed(parsed: ParseResult, raw: RawDelivery, settlement: Settlement | undefined): Promise<ProcessOutcome> {
    let outcome: ProcessOutcome;
    if (parsed.kind === 'batch') outcome = combine(await Promise.all(parsed.items.map((item) => this.processItem(item, raw))));
    else if (parsed.kind === 'delivery') outcome = await this.admit(parsed.delivery, raw);
    else outcome = combineOne(await this.rejectInput(parsed.error, raw));
    if (settlement) await this.settle(settlement, outcome);
    return outcome;
  }

  private processItem(parsed: SingleParseResult, raw: RawDelivery): Promise<ItemOutcome> {
    return parsed.kind === 'error' ? this.rejectInput(parsed.error, raw) : this.admit(parsed.delivery, raw).then(onlyItem);
  }

  /** An event without an `onEvent` handler is an input this consumer cannot handle (see ConsumerOptions.onEvent). */
  private noEventHandler(delivery: AnyDelivery): Promise<ProcessOutcome> {
    const error: ParseError = {
      reason: 'no-event-handler',
      message: `an event subscription's delivery (${delivery.payload.notificationType === 'Event' ? delivery.payload.type : ''}) and no onEvent handler`,
      source: delivery.origin.source,
    };
    return this.rejectInput(error, { source: 'raw', body: '' }).then(combineOne);
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
    // A poison message (and where it goes: dead-letter, drop or retry) is something to look at.
    this.logger.warn({ parseError: error, decision }, decision === 'dead-letter' ? 'input is not a delivery: dead-lettered' : 'input is not a delivery');
    return { status: 'parse-error', error, decision };
  }

  /** Takes a parsed delivery in; settles with its outcome as `process` reports it. */
  private admit(delivery: AnyDelivery, raw: RawDelivery): Promise<ProcessOutcome> {
    const payload = delivery.payload;
    const source = delivery.origin.source;
    // Events are deduplicated by id and never ordered (see dedup/event-keys.ts).
    const isEvent = payload.notificationType === 'Event';
    if (isEvent && this.onEvent === undefined) return this.noEventHandler(delivery);
    const meter = this.metrics.meter(source, payload.notificationType, isEvent ? payload.resourceType : payload.resource.typeId);
    meter.count('received');
    if (delivery.origin.sentAt !== undefined) this.metrics.queueWait(source, (this.clock.now() - delivery.origin.sentAt) / 1000);

    const stream = isEvent ? eventStreamKey(payload) : resourceStreamKey(payload);
    const key = isEvent ? eventDeduplicationKey(payload, this.store.keyPrefix, stream) : deduplicationKey(payload, this.store.keyPrefix, stream);
    if (this.closing) {
      return Promise.resolve(combineOne(this.count({ status: 'deferred', dedupKey: key, reason: 'closing', retryAfterMs: 0 }, meter)));
    }
    const inFlight = this.inProcess.get(key);
    if (inFlight !== undefined) {
      // A copy of a delivery already here: it is settled like the first one (never run twice,
      // never acknowledged before the first is done). It is counted as a duplicate whatever the
      // first's outcome: failed_total and late_total count what happened to the delivery, once.
      return inFlight.promise.then((first) => {
        meter.count('duplicate');
        const outcome = onlyItem(first) as DeliveryOutcome;
        return outcome.status === 'processed' ? combineOne({ status: 'duplicate', dedupKey: key }) : first;
      });
    }
    const ordered = this.sequencer !== undefined && !isEvent;
    const work = new Work(
      key,
      stream,
      payload.notificationType === 'Message' || isEvent ? 'm' : 'c',
      payload.notificationType === 'Message' ? payload.sequenceNumber : isEvent ? 0 : changeOrdinal(payload),
      payload,
      delivery,
      raw.deliveryAttempt ?? delivery.origin.deliveryAttempt,
      this.instanceId,
      meter,
      ordered,
      this.leases,
    );
    this.inProcess.set(key, work);
    // The claim goes out as the delivery arrives, while the sequencer decides when it is its turn:
    // a resource's deliveries then run back to back once their turn comes, instead of waiting one
    // claim round trip each (the longest part of a resource's wait in the pipeline bench). A
    // claimed delivery keeps its lease while it waits (renewed like a running one's).
    this.claims.enqueue(work);
    if (ordered) this.sequencer?.submit(work);
    else this.released(work, NEXT);
    return work.promise;
  }

  private claimAnswered(work: Work, error: unknown, claim: ClaimResult | undefined): void {
    // Where it was when the answer came (taking a stored position over may release it, see below).
    const stage = work.stage;
    if (error !== undefined) {
      this.logger.warn({ err: error, dedupKey: work.key }, 'dedup store unreachable');
      work.claim = STORE_UNREACHABLE;
      // Still waiting for its turn: it claims again then (the store may be back), not deferred now.
      work.claimAgain = stage === 'ordering';
    } else {
      work.claim = claim as ClaimResult;
      if (work.claim.status === 'claimed' || work.claim.status === 'late') this.leases.hold(work);
      if ((work.claim.status === 'late' || work.claim.status === 'claimed') && work.claim.storedOrdinal !== undefined && stage !== 'returned') {
        // Late: another instance (or an earlier life of this one) processed a later delivery of the
        // resource. Claimed right after the stored position: its predecessor was processed, so it
        // is next (a filtered lane's delivery needs no hold then). Either way the sequencer takes
        // that position over, which may release it at once (`released` then proceeds).
        work.storedOrdinal = work.claim.storedOrdinal;
        this.sequencer?.takeStoredPosition(work);
      }
    }
    if (stage === 'released') this.proceed(work);
    else if (stage === 'returned') this.returnClaimed(work);
  }

  /** Released, with its claim's answer: run the handler, or settle. */
  private proceed(work: Work): void {
    const claim = work.claim as ClaimResult | typeof STORE_UNREACHABLE;
    const how = work.release;
    if (claim === STORE_UNREACHABLE) {
      if (!this.failOpen) return this.finishDeferred(work, this.deferral(work, 'store-unavailable'));
      return this.run(work, how);
    }
    switch (claim.status) {
      case 'processed':
        return this.finish(work, { status: 'duplicate', dedupKey: work.key }, ADVANCED);
      case 'late':
        this.markLate(work, how.kind === 'late' ? Math.max(how.position, claim.storedOrdinal) : claim.storedOrdinal);
        return this.run(work, NEXT);
      case 'busy':
        // Another instance runs it (or crashed while running it): retry once its lease may be gone.
        return this.finishDeferred(work, {
          status: 'deferred',
          dedupKey: work.key,
          reason: 'busy',
          retryAfterMs: Math.max(this.retry.busyMinMs, claim.retryAfterMs),
        });
      case 'claimed':
        return this.run(work, how);
    }
  }

  /**
   * Hands it to the handler. `late`: at or behind the position released here — not processed (the
   * claim would have said so; the store may not know the later one yet), so handed over all the same.
   */
  private run(work: Work, how: Release): void {
    if (how.kind === 'late') this.markLate(work, how.position);
    else if (how.kind === 'gap' && work.late === undefined) work.gap = how.gap;
    this.limiter.schedule(work);
  }

  /** Its turn came (or at once without ordering): it proceeds as soon as its claim answered. */
  private released(work: Work, how: Release): void {
    work.stage = 'released';
    work.release = how;
    if (work.claimAgain) {
      work.claimAgain = false;
      work.claim = undefined;
      this.claims.enqueue(work);
      return;
    }
    if (work.claim === undefined) return;
    // Not from inside the sequencer's release: settling a duplicate, or a synchronous handler,
    // reports back to it at once (`finished`), while it is still placing or releasing deliveries.
    this.releasedWaiting.push(work);
    if (this.releasedWaiting.length === 1) queueMicrotask(this.proceedReleased);
  }

  /** Proceeds with what the sequencer released during the last turn of work (see `released`). */
  private readonly proceedReleased = (): void => {
    const released = this.releasedWaiting;
    this.releasedWaiting = [];
    for (const work of released) this.proceed(work);
  };

  /**
   * A delivery about to be handed over after a later one of its lane (`alreadyReleased`, an
   * ordinal): at-least-once comes first, so it runs, and the handler is told (`context.late`).
   */
  private markLate(work: Work, alreadyReleased: number): void {
    const lane = work.lane === 'm' ? 'messages' : 'changes';
    work.late = { lane, released: positionValueOf(work.lane, work.ordinal), alreadyReleased: positionValueOf(work.lane, alreadyReleased) };
    work.meter.count('late');
    this.logger.warn(
      { dedupKey: work.key, stream: work.stream, late: work.late },
      'a delivery arrived after a later one of its resource was handed over: handed over marked late',
    );
  }

  /** Runs the handler; a synchronous handler costs no promise at all (the hot path of simple handlers). */
  private runHandler(work: Work): void {
    const delivery = work.delivery;
    if (delivery.notificationType === 'Message' && delivery.payloadNotIncluded !== undefined && this.fetchMessage !== undefined) {
      this.completePayload(delivery, work).then(
        (completed) => this.invokeHandler(work, completed),
        (error: unknown) => this.handlerEnded(work, error, false, undefined),
      );
      return;
    }
    this.invokeHandler(work, delivery);
  }

  private invokeHandler(work: Work, delivery: AnyDelivery): void {
    const startedAt = this.timed ? performance.now() : undefined;
    let result: Promise<void> | void;
    try {
      result = delivery.notificationType === 'Event' ? (this.onEvent as EventHandler)(delivery, work) : this.handler(delivery, work);
    } catch (error) {
      return this.handlerEnded(work, error, false, startedAt);
    }
    if (result !== undefined && typeof (result as Promise<void>).then === 'function') {
      (result as Promise<void>).then(
        () => this.handlerEnded(work, undefined, true, startedAt),
        (error: unknown) => this.handlerEnded(work, error, false, startedAt),
      );
    } else {
      this.handlerEnded(work, undefined, true, startedAt);
    }
  }

  private handlerEnded(work: Work, error: unknown, succeeded: boolean, startedAt: number | undefined): void {
    if (startedAt !== undefined) {
      work.meter.handlerDuration((performance.now() - startedAt) / 1000);
    }
    this.limiter.done();
    if (succeeded) this.succeeded(work);
    else this.failed(work, error);
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

  private succeeded(work: Work): void {
    // The next delivery of the resource may start now, while this one is being recorded: its claim
    // and this record travel together, so a resource advances one round trip per delivery instead
    // of two. Safe: should this process die before the record lands, this delivery's lease expires
    // and it runs again before anything later can be recorded past it elsewhere (at-least-once).
    if (work.position !== undefined) this.sequencer?.finished(work, ADVANCED);
    this.completions.enqueue(work);
  }

  private recorded(work: Work, error: unknown): void {
    if (error !== undefined) {
      // The handler's effects are done: acknowledging loses nothing, while a retry would only run
      // it again. What is lost is the record (a later copy could run again) and, for other
      // instances, the position (they wait up to maxWaitMs, then move on).
      this.logger.error({ err: error, dedupKey: work.key }, 'handler succeeded but could not be recorded as processed');
    }
    this.leases.drop(work);
    this.finish(work, { status: 'processed', dedupKey: work.key }, undefined);
  }

  private failed(work: Work, error: unknown): void {
    this.logger.warn({ err: error, dedupKey: work.key }, 'handler failed; the delivery will be retried');
    const attempt = Math.max(1, work.deliveryAttempt ?? 1);
    const retryAfterMs = Math.min(this.retry.failureMaxMs, this.retry.failureBaseMs * 2 ** (attempt - 1));
    work.failure = { status: 'failed', dedupKey: work.key, error, retryAfterMs };
    if (!work.holding) return this.finishDeferred(work, work.failure);
    this.leases.drop(work);
    this.releases.enqueue(work);
  }

  /** A lease released: the failed or handed-back delivery settles now. */
  private releaseAnswered(work: Work, error: unknown): void {
    if (work.failure === undefined) return;
    // If it could not be released, the lease expires on its own; the retry waits for that.
    if (error !== undefined) this.logger.warn({ err: error, dedupKey: work.key }, 'could not release the lease');
    this.finishDeferred(work, work.failure);
  }

  /** Handed back by the sequencer (buffer full, closing, positions unreadable): settled once its claim answered. */
  private rejected(work: Work, reason: RejectReason): void {
    work.stage = 'returned';
    work.failure = this.deferral(work, reason);
    if (work.claim !== undefined) this.returnClaimed(work);
  }

  /** A handed-back delivery's lease is released first, so that the instance it is redelivered to can claim it at once. */
  private returnClaimed(work: Work): void {
    const outcome = work.failure as RetryOutcome;
    if (work.claim !== STORE_UNREACHABLE && work.claim?.status === 'processed')
      return this.finish(work, { status: 'duplicate', dedupKey: work.key }, undefined);
    if (!work.holding) return this.finish(work, outcome, undefined);
    this.leases.drop(work);
    this.releases.enqueue(work);
  }

  private deferral(work: Work, reason: DeferReason): RetryOutcome {
    const retryAfterMs =
      reason === 'store-unavailable'
        ? this.retry.storeUnavailableMs
        : reason === 'buffer-full'
          ? this.retry.bufferFullMs
          : reason === 'busy'
            ? this.retry.busyMinMs
            : 0;
    return { status: 'deferred', dedupKey: work.key, reason, retryAfterMs };
  }

  /** Settles a released delivery that comes back after `retryAfterMs`: its successors wait for it (see FinishReport). */
  private finishDeferred(work: Work, outcome: RetryOutcome): void {
    this.finish(work, outcome, { advanced: false, retryAfterMs: outcome.retryAfterMs });
  }

  /** Settles a delivery: metrics, ordering bookkeeping, then the waiting `process` call. */
  private finish(work: Work, outcome: DeliveryOutcome, report: FinishReport | undefined): void {
    this.inProcess.delete(work.key);
    if (report !== undefined && work.position !== undefined && work.stage === 'released') this.sequencer?.finished(work, report);
    work.resolve(combineOne(this.count(outcome, work.meter)));
  }

  private count(outcome: DeliveryOutcome, meter: DeliveryMeter): DeliveryOutcome {
    if (outcome.status === 'deferred') this.metrics.deferred(outcome.reason);
    else meter.count(outcome.status);
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

/** A single item's settlement. */
function combineOne(item: ItemOutcome): ProcessOutcome {
  return combine([item]);
}

/** The outcome of the one delivery a ProcessOutcome of `admit` holds. */
function onlyItem(outcome: ProcessOutcome): ItemOutcome {
  return outcome.items[0] as ItemOutcome;
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
