import type { Message, SQSClient } from '@aws-sdk/client-sqs';
import { sleep, systemClock, type Clock, type TimerHandle } from '../clock.js';
import type { Consumer, ProcessOutcome } from '../consumer/types.js';
import type { Logger } from '../logger.js';
import type { DeferReason } from '../metrics/consumer-metrics.js';
import { MicroBatcher } from '../micro-batcher.js';
import { HandlingSlots } from './handling-slots.js';

export interface SqsPollerOptions {
  readonly queueUrl: string;
  /**
   * Messages being handled at once; independent of `batchSize`. Default 100. Messages waiting in
   * the reorder buffer for a predecessor do not take a slot (see `HandlingSlots`).
   */
  readonly maxInFlight?: number;
  /** Messages per ReceiveMessage call, 1–10. Default 10. */
  readonly batchSize?: number;
  /** Long polling wait, 0–20 s. Default 20. */
  readonly waitTimeSeconds?: number;
  /**
   * Visibility timeout requested on receive and re-applied every half of it while a message is in
   * flight (buffered or handled), so a slow handler or a reorder wait never lets it reappear.
   * Default 30.
   */
  readonly visibilityTimeoutSeconds?: number;
  /** Backoff after a failed receive: doubles from `initialMs` to `maxMs`, with ±20% jitter. Defaults 200 / 30,000. */
  readonly backoff?: { readonly initialMs?: number; readonly maxMs?: number };
}

/** The longest a waiting message is kept invisible at a time (longer only if the configured timeout is). */
const LONGEST_EXTENSION_SECONDS = 300;

/** SQS caps ChangeMessageVisibility at 12 hours. */
const MAX_VISIBILITY_SECONDS = 43_200;

type SqsSdk = typeof import('@aws-sdk/client-sqs');

/**
 * Deferrals retried in this process, the message kept in hand (and invisible) meanwhile: back in
 * the queue, every receive would count toward the redrive policy's maxReceiveCount, and a Redis
 * outage of storeUnavailableMs × maxReceiveCount would dead-letter valid deliveries never handled.
 * Held messages keep their slot: during an outage the poller stops receiving instead of cycling
 * the queue. Not `buffer-full`: held, those could fill every slot while the predecessors that
 * would drain the buffer stay in the queue; and not `closing` (another instance should take it).
 */
/** How long past its long poll a receive may take after `stop()` before it is given up as stalled. */
const STALLED_RECEIVE_SLACK_MS = 5_000;

const RETRIED_IN_HAND: ReadonlySet<DeferReason> = new Set<DeferReason>(['store-unavailable', 'busy']);

function retriedInHand(outcome: ProcessOutcome): boolean {
  return outcome.action === 'nack' && outcome.items.every((item) => item.status === 'deferred' && RETRIED_IN_HAND.has(item.reason));
}

interface VisibilityChange {
  readonly message: Message;
  readonly seconds: number;
}

function clampInteger(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new RangeError(`${name} must be an integer in [${min}, ${max}] (got ${value})`);
  return value;
}

/**
 * Long-polls an SQS queue and feeds the consumer. Deletes a message when its deliveries are done,
 * changes its visibility to the consumer's retry delay when not, and leaves poison messages alone
 * so the queue's redrive policy moves them to its dead-letter queue after `maxReceiveCount`.
 */
export class SqsPoller {
  private readonly client: SQSClient;
  private readonly consumer: Consumer;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly queueUrl: string;
  private readonly batchSize: number;
  private readonly waitTimeSeconds: number;
  private readonly visibilityTimeoutSeconds: number;
  private readonly backoffInitialMs: number;
  private readonly backoffMaxMs: number;
  private readonly slots: HandlingSlots;
  /** SQS writes (deletes, visibility changes) not answered yet: `stop()` waits for them. */
  private readonly pendingCalls = new Set<Promise<unknown>>();
  private readonly deletes: MicroBatcher<Message, void>;
  /**
   * Visibility changes (extensions of buffered and running messages, retry delays), ten per call:
   * after an outage tens of thousands of messages may wait in the reorder buffer, each extended
   * every half visibility timeout.
   */
  private readonly visibilityChanges: MicroBatcher<VisibilityChange, void>;
  private sdk: SqsSdk | undefined;
  private loop: Promise<void> | undefined;
  private stopping: AbortController | undefined;
  /** Aborts a receive in flight: only when it outlives its long poll after `stop()` (see there). */
  private receiving: AbortController | undefined;

  constructor(deps: { readonly client: SQSClient; readonly consumer: Consumer; readonly clock?: Clock; readonly logger?: Logger }, options: SqsPollerOptions) {
    this.client = deps.client;
    this.consumer = deps.consumer;
    this.clock = deps.clock ?? systemClock;
    this.logger = deps.logger ?? deps.consumer.logger;
    this.queueUrl = options.queueUrl;
    this.slots = new HandlingSlots(this.consumer, this.clock, clampInteger('maxInFlight', options.maxInFlight ?? 100, 1, 100_000));
    this.batchSize = clampInteger('batchSize', options.batchSize ?? 10, 1, 10);
    this.waitTimeSeconds = clampInteger('waitTimeSeconds', options.waitTimeSeconds ?? 20, 0, 20);
    this.visibilityTimeoutSeconds = clampInteger('visibilityTimeoutSeconds', options.visibilityTimeoutSeconds ?? 30, 2, MAX_VISIBILITY_SECONDS);
    this.backoffInitialMs = options.backoff?.initialMs ?? 200;
    this.backoffMaxMs = options.backoff?.maxMs ?? 30_000;
    // DeleteMessageBatch takes up to 10 entries.
    this.deletes = new MicroBatcher((messages) => this.deleteBatch(messages), 10);
    this.visibilityChanges = new MicroBatcher((changes) => this.changeVisibilityBatch(changes), 10);
  }

  get inFlight(): number {
    return this.slots.inFlight;
  }

  start(): void {
    if (this.loop) throw new Error('SqsPoller already started');
    const stopping = new AbortController();
    const receiving = new AbortController();
    this.stopping = stopping;
    this.receiving = receiving;
    this.loop = this.poll(stopping.signal, receiving.signal);
  }

  /**
   * Stops receiving, hands back what waits for a predecessor, then waits until every received
   * message is settled and its settlement reached SQS. A long poll in flight is let finish (up to
   * `waitTimeSeconds`) and what it brings is handed back at once: aborted, SQS may still give it
   * messages nobody reads, invisible until their visibility timeout.
   */
  async stop(): Promise<void> {
    this.stopping?.abort();
    // Nothing received from now on reaches the consumer: what waits for a predecessor goes back now.
    this.consumer.returnWaiting();
    const receiving = this.receiving;
    const stalled = setTimeout(() => receiving?.abort(), this.waitTimeSeconds * 1000 + STALLED_RECEIVE_SLACK_MS);
    this.slots.wakeAll();
    await this.loop;
    clearTimeout(stalled);
    await this.slots.settled();
    // Deletes are batched at the end of the event loop turn: let the last batch go out.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await Promise.all([...this.pendingCalls]);
    this.loop = undefined;
  }

  private call<T>(request: Promise<T>): Promise<T> {
    this.pendingCalls.add(request);
    void request.catch(() => undefined).finally(() => this.pendingCalls.delete(request));
    return request;
  }

  private async poll(signal: AbortSignal, receiving: AbortSignal): Promise<void> {
    this.sdk ??= await import('@aws-sdk/client-sqs');
    const { ReceiveMessageCommand } = this.sdk;
    let backoffMs = this.backoffInitialMs;
    while (!signal.aborted) {
      await this.slots.whenFree(signal);
      if (signal.aborted) break;
      const requested = Math.min(this.batchSize, this.slots.free);
      let messages: Message[];
      try {
        const response = await this.client.send(
          new ReceiveMessageCommand({
            QueueUrl: this.queueUrl,
            MaxNumberOfMessages: requested,
            WaitTimeSeconds: this.waitTimeSeconds,
            VisibilityTimeout: this.visibilityTimeoutSeconds,
            MessageSystemAttributeNames: ['SentTimestamp', 'ApproximateReceiveCount'],
          }),
          { abortSignal: receiving },
        );
        messages = response.Messages ?? [];
        if (signal.aborted) {
          // Received after stop(): for another instance, visible again now.
          for (const message of messages) void this.changeVisibility(message, 0);
          break;
        }
        backoffMs = this.backoffInitialMs;
        // A full batch: more is waiting behind it, where the predecessors of buffered deliveries
        // most likely are (after an outage the backlog arrives in no particular order).
        if (messages.length === requested) this.consumer.noteBacklog();
      } catch (error) {
        if (signal.aborted || receiving.aborted) break;
        const jittered = backoffMs * (0.8 + Math.random() * 0.4);
        this.logger.warn({ err: error, retryInMs: Math.round(jittered) }, 'SQS receive failed');
        await sleep(this.clock, jittered, signal);
        backoffMs = Math.min(this.backoffMaxMs, backoffMs * 2);
        continue;
      }
      for (const message of messages) this.slots.track(this.handle(message, signal));
    }
  }

  private async handle(message: Message, stopping: AbortSignal): Promise<void> {
    const extension = this.keepInvisible(message);
    const sentTimestamp = Number(message.Attributes?.SentTimestamp);
    const receiveCount = Number(message.Attributes?.ApproximateReceiveCount);
    const raw = {
      source: 'sqs',
      body: message.Body ?? '',
      enqueuedAt: Number.isFinite(sentTimestamp) ? sentTimestamp : undefined,
      deliveryAttempt: Number.isFinite(receiveCount) ? receiveCount : undefined,
      transportMessageId: message.MessageId,
    } as const;
    try {
      let outcome = await this.consumer.process(raw);
      while (retriedInHand(outcome) && !stopping.aborted) {
        await sleep(this.clock, outcome.retryAfterMs, stopping);
        if (!stopping.aborted) outcome = await this.consumer.process(raw);
      }
      extension.cancel();
      // Kept in hand for a retry when stop() came: visible again at once, for another instance.
      if (stopping.aborted && retriedInHand(outcome)) outcome = { ...outcome, retryAfterMs: 0 };
      await this.settle(message, outcome);
    } catch (error) {
      // Not an outcome but a bug: the message reappears after its visibility timeout.
      this.logger.error({ err: error, messageId: message.MessageId }, 'processing an SQS message failed unexpectedly');
    } finally {
      extension.cancel();
    }
  }

  private async settle(message: Message, outcome: ProcessOutcome): Promise<void> {
    switch (outcome.action) {
      case 'ack':
        return this.deletes.submit(message);
      case 'nack':
        return this.changeVisibility(message, Math.ceil(outcome.retryAfterMs / 1000));
      case 'dead-letter':
        // SQS has no "dead-letter this one" call: letting the visibility time out counts a receive,
        // and the queue's redrive policy moves it after maxReceiveCount.
        this.logger.warn({ messageId: message.MessageId, reason: outcome.reason }, 'poison message left for the redrive policy');
    }
  }

  /**
   * Keeps a message invisible until cancelled: after half the visibility timeout it is extended by
   * the timeout, and each later extension doubles (up to `LONGEST_EXTENSION_SECONDS`), re-applied at
   * half of it. A handler that is merely slow costs one call; a message that waits long in the
   * reorder buffer (after an outage, tens of thousands do) costs few, at the price of reappearing
   * later should this process die.
   */
  private keepInvisible(message: Message): TimerHandle {
    let timer: TimerHandle | undefined;
    let cancelled = false;
    let seconds = this.visibilityTimeoutSeconds;
    const arm = (afterMs: number): void => {
      timer = this.clock.setTimeout(() => {
        if (cancelled) return;
        const extension = seconds;
        void this.changeVisibility(message, extension).finally(() => {
          if (cancelled) return;
          seconds = Math.max(this.visibilityTimeoutSeconds, Math.min(LONGEST_EXTENSION_SECONDS, extension * 2));
          arm((extension * 1000) / 2);
        });
      }, afterMs);
    };
    arm((this.visibilityTimeoutSeconds * 1000) / 2);
    return {
      cancel: () => {
        cancelled = true;
        timer?.cancel();
      },
    };
  }

  private changeVisibility(message: Message, seconds: number): Promise<void> {
    if (!this.sdk || message.ReceiptHandle === undefined) return Promise.resolve();
    return this.call(this.visibilityChanges.submit({ message, seconds: Math.max(0, Math.min(MAX_VISIBILITY_SECONDS, seconds)) }));
  }

  private async changeVisibilityBatch(changes: readonly VisibilityChange[]): Promise<void[]> {
    if (!this.sdk) return [];
    try {
      const response = await this.client.send(
        new this.sdk.ChangeMessageVisibilityBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: changes.map((change, index) => ({ Id: String(index), ReceiptHandle: change.message.ReceiptHandle, VisibilityTimeout: change.seconds })),
        }),
      );
      for (const failure of response.Failed ?? []) {
        // The message reappears at its current deadline instead; nothing is lost.
        this.logger.warn({ failure }, 'SQS ChangeMessageVisibility failed for a message');
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'SQS ChangeMessageVisibilityBatch failed; the messages reappear at their current deadline');
    }
    return [];
  }

  private async deleteBatch(messages: readonly Message[]): Promise<void[]> {
    if (!this.sdk) return [];
    try {
      const response = await this.call(
        this.client.send(
          new this.sdk.DeleteMessageBatchCommand({
            QueueUrl: this.queueUrl,
            Entries: messages.map((message, index) => ({ Id: String(index), ReceiptHandle: message.ReceiptHandle })),
          }),
        ),
      );
      for (const failure of response.Failed ?? []) {
        this.logger.warn({ failure }, 'SQS delete failed; the message will be redelivered and deduplicated');
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'SQS DeleteMessageBatch failed; the messages will be redelivered and deduplicated');
    }
    return [];
  }
}
