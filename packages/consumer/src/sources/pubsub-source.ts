import type { Message, PubSub, Subscription } from '@google-cloud/pubsub';
import { systemClock, type Clock } from '../clock.js';
import type { Consumer, Settlement } from '../consumer/types.js';
import type { Logger } from '../logger.js';
import { AttemptCounter } from './attempt-counter.js';
import { HandlingSlots } from './handling-slots.js';
import { holdBeforeRetry } from './hold.js';

const DEFAULT_MAX_MESSAGES = 1_000;

export interface PubSubSourceOptions {
  readonly subscriptionName: string;
  /**
   * Flow control: at most this many messages (and bytes) leased and not yet settled; excess
   * messages are not even leased (`allowExcessMessages: false`). Defaults 1,000 / 100 MiB (the
   * SDK's own defaults). Unlike the other sources, messages waiting in the reorder buffer count
   * here (Pub/Sub's server applies the limit per stream): keep it well above the number of
   * resources whose deliveries may arrive out of order at once, or a reversed backlog can fill
   * it with early deliveries and wait `ordering.maxWaitMs` for the gap. Handler concurrency is
   * the consumer's `concurrency`, not this.
   */
  readonly flowControl?: { readonly maxMessages?: number; readonly maxBytes?: number };
  /** The SDK extends ack deadlines for at most this long (keep it above the reorder `maxWaitMs`). Default 600 s. */
  readonly maxExtensionSeconds?: number;
  /** Longest hold before nacking a deferred message (see `holdBeforeRetry`). Default 10 s. */
  readonly maxHoldMs?: number;
}

/**
 * Pulls from a Pub/Sub subscription (StreamingPull through the SDK): ack on success, nack on
 * failure (after holding it for the retry delay); poison messages are nacked so the
 * subscription's dead-letter policy takes them after its maximum delivery attempts.
 */
export class PubSubSource {
  private readonly pubsub: PubSub;
  private readonly consumer: Consumer;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly options: PubSubSourceOptions;
  /** Received messages not settled yet (the SDK's flow control bounds them; no gate here). */
  private readonly slots: HandlingSlots;
  /** Attempts of messages without the server's count (no dead-letter policy), for the backoff. */
  private readonly attempts = new AttemptCounter();
  /** Per start(): a source stopped and started again must not see the old abort. */
  private stopping = new AbortController();
  private subscription: Subscription | undefined;
  private readonly onMessage = (message: Message): void => {
    // Leased before the stream closed but dispatched after: handed back once, for another instance.
    if (this.stopping.signal.aborted) {
      message.nack();
      return;
    }
    this.slots.track(this.handle(message, this.stopping.signal));
  };
  private readonly onError = (error: Error): void => {
    this.logger.warn({ err: error }, 'Pub/Sub subscription error');
  };

  constructor(deps: { readonly pubsub: PubSub; readonly consumer: Consumer; readonly clock?: Clock; readonly logger?: Logger }, options: PubSubSourceOptions) {
    this.pubsub = deps.pubsub;
    this.consumer = deps.consumer;
    this.clock = deps.clock ?? systemClock;
    this.logger = deps.logger ?? deps.consumer.logger;
    this.options = options;
    this.slots = new HandlingSlots(this.consumer, this.clock, options.flowControl?.maxMessages ?? DEFAULT_MAX_MESSAGES);
  }

  get inFlight(): number {
    return this.slots.inFlight;
  }

  /** Opens the subscription's stream (the SDK module is loaded here, lazily). */
  async start(): Promise<void> {
    if (this.subscription) throw new Error('PubSubSource already started');
    const { Duration } = await import('@google-cloud/pubsub');
    const maxExtension = Duration.from({ seconds: this.options.maxExtensionSeconds ?? 600 });
    this.stopping = new AbortController();
    const subscription = this.pubsub.subscription(this.options.subscriptionName, {
      flowControl: {
        maxMessages: this.slots.limit,
        maxBytes: this.options.flowControl?.maxBytes ?? 100 * 1024 * 1024,
        allowExcessMessages: false,
      },
      maxExtensionTime: maxExtension,
      // close() stops the stream, then keeps leasing, acking and nacking until every message
      // handed out is settled (the SDK's default nacks them at once: their handlers' acks would
      // be lost and the messages handled again elsewhere). Past the timeout the rest is nacked.
      // 'WAIT' is SubscriberCloseBehaviors.WaitForProcessing, which the package root does not export.
      closeOptions: { behavior: 'WAIT', timeout: maxExtension },
    });
    subscription.on('message', this.onMessage);
    subscription.on('error', this.onError);
    this.subscription = subscription;
  }

  /**
   * Closes the stream (no new messages), waits for in-flight ones to settle, then lets go of the
   * subscription. The 'message' listener stays until then: removing the last one makes the SDK
   * close the subscriber by itself.
   */
  async stop(): Promise<void> {
    this.stopping.abort();
    const subscription = this.subscription;
    if (!subscription) return;
    // Messages dispatched from now on are nacked (onMessage); what waits for a predecessor is
    // nacked now, before close() waits for every message handed out to settle.
    this.consumer.returnWaiting();
    await subscription.close();
    await this.slots.settled();
    subscription.removeListener('message', this.onMessage);
    subscription.removeListener('error', this.onError);
    this.subscription = undefined;
  }

  private async handle(message: Message, stopping: AbortSignal): Promise<void> {
    const maxHoldMs = this.options.maxHoldMs ?? 10_000;
    const settlement: Settlement = {
      ack: () => {
        this.attempts.forget(message.id);
        message.ack();
      },
      nack: async (retryAfterMs) => {
        await holdBeforeRetry(this.clock, retryAfterMs, maxHoldMs, stopping);
        message.nack();
      },
      // Pub/Sub has no "dead-letter this one": its dead-letter policy moves a message after
      // maxDeliveryAttempts nacks. Without a policy a nack is redelivered at once, forever: held
      // first (as long as a retry may be), a poison message loops every maxHoldMs, not flat out.
      deadLetter: async () => {
        await holdBeforeRetry(this.clock, maxHoldMs, maxHoldMs, stopping);
        message.nack();
      },
    };
    try {
      await this.process(message, settlement);
    } catch (error) {
      // Not an outcome but a bug: the message is redelivered once its ack deadline passes.
      this.logger.error({ err: error, messageId: message.id }, 'processing a Pub/Sub message failed unexpectedly');
    }
  }

  private async process(message: Message, settlement: Settlement): Promise<void> {
    await this.consumer.process(
      {
        source: 'pubsub',
        data: message.data,
        attributes: message.attributes,
        enqueuedAt: message.publishTime?.getTime(),
        // The server counts only for subscriptions with a dead-letter policy (0 otherwise): then
        // this process counts, so that a failing handler's retries still back off.
        deliveryAttempt: message.deliveryAttempt > 0 ? message.deliveryAttempt : this.attempts.next(message.id),
        transportMessageId: message.id,
      },
      settlement,
    );
  }
}
