import type { Registry } from 'prom-client';
import type { Clock } from '../clock.js';
import type { DedupStore } from '../dedup/dedup-store.js';
import type { Delivery, EventDelivery } from '../delivery.js';
import type { Logger } from '../logger.js';
import type { DeferReason } from '../metrics/consumer-metrics.js';
import type { GapNotice } from '../ordering/gap-notice.js';
import type { LateNotice } from '../ordering/late-notice.js';
import type { MessageFetcher } from '../parse/messages-api.js';
import type { ParseError } from '../parse/parse-error.js';
import type { RawDelivery } from '../parse/raw-delivery.js';

/** What the handler gets besides the delivery. */
export interface DeliveryContext {
  /** The deduplication key (`deduplicationKey` of @herald/model with the store's prefix). */
  readonly dedupKey: string;
  /** `resourceStreamKey`: `{projectKey}:{typeId}:{resourceId}`. */
  readonly streamKey: string;
  /** Set when this delivery was released past a missing predecessor (ordering only). */
  readonly gap?: GapNotice;
  /**
   * Set when this delivery arrived after a later one of its resource's lane was already handed
   * over (ordering only; see LateNotice). Never set together with `gap`, never for a duplicate:
   * a delivery already processed is acknowledged without reaching the handler.
   */
  readonly late?: LateNotice;
  /** The transport's delivery count, when it keeps one. */
  readonly deliveryAttempt?: number;
  /**
   * Aborted when the lease on this delivery was lost (another instance may now run it too) or the
   * consumer is closing. Pass it to your I/O to stop early.
   */
  readonly signal: AbortSignal;
}

/** The user's code. Resolve to acknowledge; throw (reject) to have the delivery retried. */
export type DeliveryHandler = (delivery: Delivery, context: DeliveryContext) => Promise<void> | void;

/**
 * The user's code for event subscriptions' deliveries (`notificationType: 'Event'`), which are
 * about no resource: deduplicated by their `id` and never ordered (`context.streamKey` is
 * `events:{resourceType}`, `context.gap` never set).
 */
export type EventHandler = (delivery: EventDelivery, context: DeliveryContext) => Promise<void> | void;

/**
 * What to do with an input that is not a delivery (a poison message):
 * - `dead-letter`: hand it to the transport's dead-letter mechanism (Service Bus dead-letter
 *   queue; SQS / Pub/Sub: left unacknowledged so the redrive / dead-letter policy moves it after
 *   its maximum receive count; Event Grid push: HTTP 400, which it dead-letters without retry);
 * - `drop`: acknowledge it (store it yourself first if you want it);
 * - `retry`: leave it for redelivery (useful while rolling out a parser fix).
 */
export type ParseErrorDecision = 'dead-letter' | 'drop' | 'retry';

export type ParseErrorPolicy = (error: ParseError, raw: RawDelivery) => ParseErrorDecision | Promise<ParseErrorDecision>;

/** A subscription's MessageSubscription (§2.4), as passed in `ordering.filteredMessages`. */
export interface MessageFilter {
  readonly resourceTypeId: string;
  readonly types?: readonly string[];
}

export interface OrderingOptions {
  /**
   * How long an early delivery waits for its predecessor before the lane moves past the gap.
   * Default 10 s. While a source reports a backlog (`noteBacklog`: the SqsPoller does when a
   * receive comes back full), the wait does not count: the predecessor is most likely still in
   * the queue behind what is being received. Nor does it before a delivery of the resource that
   * failed or was deferred here is due again (`retryAfterMs`). Other instances know only the
   * stored position: there, a predecessor still running here for longer than this is skipped,
   * and the delivery released past it may run at the same time (with `context.gap`).
   */
  readonly maxWaitMs?: number;
  /**
   * The longest an early delivery waits while the source keeps reporting a backlog, on top of
   * `maxWaitMs` (a predecessor that never comes must not block its resource for as long as the
   * queue stays busy). Default 10 min.
   */
  readonly maxBacklogWaitMs?: number;
  /**
   * Waiting deliveries per resource; beyond, new early arrivals are deferred (nack), but never the
   * one the resource waits for next. Default 1,000.
   */
  readonly maxBufferedPerResource?: number;
  /** Waiting deliveries in total; beyond, new early arrivals are deferred (nack), with the same exception. Default 100,000. */
  readonly maxBuffered?: number;
  /**
   * The first delivery of a resource with no stored position (sequenceNumber 1 and ResourceCreated
   * are released at once in every mode): `hold` (default) holds anything else briefly, like a
   * filtered lane's deliveries (see `filteredMessages`), then releases the lowest without a gap
   * notice (the resource may predate the subscription: nothing is known to be missing); `wait`
   * waits `maxWaitMs` and releases the lowest with an `unknown-start` gap notice; `immediate`
   * releases whatever comes first. In every mode, anything lower arriving after a delivery was
   * released is still handed over, with `context.late`.
   */
  readonly unknownStart?: 'hold' | 'wait' | 'immediate';
  /**
   * Which messages lanes have sequenceNumber gaps by design: the subscription's `messages` as
   * created (`[{ resourceTypeId: 'order', types: ['OrderCreated'] }]`: a resource type whose
   * `types` are set is filtered), or `true` / `false` for all (default `false`). In a filtered lane a
   * delivery that is not the next sequenceNumber is held only until an out-of-order predecessor
   * would have arrived (measured, at most `maxHoldMs`), then released without a gap notice; a
   * predecessor arriving later still is handed over with `context.late`, counted and logged.
   * Unfiltered lanes wait `maxWaitMs` for a missing sequenceNumber and report it as a gap.
   */
  readonly filteredMessages?: boolean | readonly MessageFilter[];
  /**
   * The longest brief hold (filtered lanes, unknown starts). The hold itself adapts to how late
   * out-of-order deliveries arrive (twice the recent lateness in time or in arrivals, whichever ends
   * first). Default min(1 s, maxWaitMs / 10).
   */
  readonly maxHoldMs?: number;
  /** A resource with waiting deliveries re-reads its stored position this often. Default min(1 s, maxWaitMs). */
  readonly positionRefreshMs?: number;
  /**
   * Positions of idle resources kept in memory (least recently active evicted; about 300 bytes
   * each). An evicted resource's next delivery reads its position from the store first (one
   * batched round trip). Default 10,000.
   */
  readonly positionCacheSize?: number;
}

/** Delays (ms) the consumer asks the source to wait before a retry. */
export interface RetryOptions {
  /**
   * After a handler failure: `failureBaseMs * 2^(attempt-1)`, capped at `failureMaxMs`. Defaults
   * 1,000 / 30,000. With ordering, the resource's waiting deliveries wait for the retry (and
   * `maxWaitMs` more), so this may exceed `maxWaitMs`.
   */
  readonly failureBaseMs?: number;
  readonly failureMaxMs?: number;
  /** When another instance holds the lease: the lease's remaining time, at least this. Default 250. */
  readonly busyMinMs?: number;
  /** When the store is unreachable (fail closed). Default 5,000. */
  readonly storeUnavailableMs?: number;
  /** When the reorder buffer is full. Default 1,000. */
  readonly bufferFullMs?: number;
}

export interface ConsumerOptions {
  readonly handler: DeliveryHandler;
  /**
   * Handles event subscriptions' deliveries. Without it such a delivery is not a delivery this
   * consumer can handle: a `no-event-handler` parse error for `onParseError` (dead-letter by default).
   */
  readonly onEvent?: EventHandler;
  /** `RedisDedupStore` (shared by instances) or `MemoryDedupStore` (one process). */
  readonly dedup: DedupStore;
  /** Per-resource ordering; off when absent (deduplication only, no waiting). */
  readonly ordering?: OrderingOptions;
  /** Handlers running at once, across resources (one at a time per resource). Default 16. */
  readonly concurrency?: number;
  /** Registers `herald_consumer_*` metrics on this registry (never the global one). */
  readonly metrics?: { readonly registry: Registry };
  /**
   * pino-compatible `{ debug, info, warn, error }(fields, message)`. Default: JSON lines on standard
   * error at `info` (`createJsonLogger()`); `silentLogger` turns logging off.
   */
  readonly logger?: Logger;
  /** Default: `systemClock`. */
  readonly clock?: Clock;
  /** Poison-message policy; default `dead-letter`. If the policy throws, the input is retried. */
  readonly onParseError?: ParseErrorPolicy;
  /** Loads messages delivered with `payloadNotIncluded` before the handler runs. */
  readonly fetchMessage?: MessageFetcher;
  /**
   * When the store is unreachable: false (default) = fail closed, nothing runs or is acknowledged,
   * deliveries are deferred; true = run the handler anyway (duplicates and order not guaranteed).
   */
  readonly failOpen?: boolean;
  readonly retry?: RetryOptions;
  /** Owner id of this instance's leases; default `{hostname}-{pid}-{random}`. Must not contain `|`. */
  readonly instanceId?: string;
}

/** Acknowledgement callbacks of one input (one queue message / one HTTP request). */
export interface Settlement {
  /** Done (processed, duplicate or dropped): delete / complete / ack it. */
  ack(): void | Promise<void>;
  /** Not done: make it available again after about `retryAfterMs`. */
  nack(retryAfterMs: number): void | Promise<void>;
  /** Poison: hand it to the transport's dead-letter mechanism (see `ParseErrorDecision`). */
  deadLetter(reason: string): void | Promise<void>;
}

export type DeliveryOutcome =
  | { readonly status: 'processed' | 'duplicate'; readonly dedupKey: string }
  | { readonly status: 'failed'; readonly dedupKey: string; readonly error: unknown; readonly retryAfterMs: number }
  | { readonly status: 'deferred'; readonly dedupKey: string; readonly reason: DeferReason; readonly retryAfterMs: number };

export type ItemOutcome = DeliveryOutcome | { readonly status: 'parse-error'; readonly error: ParseError; readonly decision: ParseErrorDecision };

/** How an input was settled, and what happened to each delivery in it. */
export interface ProcessOutcome {
  readonly action: 'ack' | 'nack' | 'dead-letter';
  /** For `nack`: the longest delay any item asked for. */
  readonly retryAfterMs: number;
  /** For `dead-letter`: the first parse error's message. */
  readonly reason?: string;
  readonly items: readonly ItemOutcome[];
}

export interface Consumer {
  readonly instanceId: string;
  /** The consumer's logger (`options.logger`, or the default JSON logger); the bundled sources log through it unless given their own. */
  readonly logger: Logger;
  /**
   * Parses, deduplicates, orders and hands the input's deliveries to the handler; resolves when
   * all of them are settled (after `settlement` was called, when given). Never rejects for bad
   * input or handler failures: those are outcomes.
   */
  process(raw: RawDelivery, settlement?: Settlement): Promise<ProcessOutcome>;
  /** Deliveries currently waiting in the reorder buffer. */
  readonly bufferedCount: number;
  /**
   * Tells the consumer that its source has more waiting right now (a receive came back full):
   * waits for predecessors do not count meanwhile (see `ordering.maxWaitMs`). Sources call it.
   */
  noteBacklog(): void;
  /**
   * Defers (`closing`, due at once) every delivery waiting in the reorder buffer for a predecessor,
   * so its source hands it back to the transport; running ones and later inputs are not affected.
   * The bundled sources call it from `stop()` once they no longer receive: a predecessor cannot
   * arrive any more, and waiting would release the delivery past a gap here and make its
   * predecessor late (`context.late`) at the instance that receives it next. Call it from your own
   * source's shutdown too. Returns how many were handed back.
   */
  returnWaiting(): number;
  /**
   * Stops accepting (new inputs are deferred), defers waiting ones, aborts the `context.signal` of
   * handlers (running and yet to start), and waits for running handlers.
   */
  close(): Promise<void>;
}
