import type { ServiceBusClient, ServiceBusReceivedMessage, ServiceBusReceiver } from '@azure/service-bus';
import { systemClock, type Clock } from '../clock.js';
import type { Consumer, Settlement } from '../consumer/types.js';
import type { Logger } from '../logger.js';
import { HandlingSlots } from './handling-slots.js';
import { holdBeforeRetry } from './hold.js';

export type ServiceBusEntity = { readonly queueName: string } | { readonly topicName: string; readonly subscriptionName: string };

export type ServiceBusSourceOptions = ServiceBusEntity & {
  /**
   * Messages handled at once. Default 16. Messages waiting in the reorder buffer for a predecessor
   * do not take a slot (see `HandlingSlots`): the SDK's `processMessage` returns as soon as a message
   * is handed over, its lock is renewed until it is settled.
   */
  readonly maxConcurrentCalls?: number;
  /** The SDK renews a message's lock for this long (keep it above the reorder `maxWaitMs`). Default 5 min. */
  readonly maxAutoLockRenewalDurationInMs?: number;
  /** Longest hold before abandoning a deferred message (see `holdBeforeRetry`). Default 10 s. */
  readonly maxHoldMs?: number;
};

/**
 * Receives from a Service Bus queue or topic subscription in peekLock mode: complete on success,
 * abandon on failure (after holding it for the retry delay), dead-letter poison messages into the
 * entity's dead-letter queue.
 */
export class ServiceBusSource {
  private readonly client: ServiceBusClient;
  private readonly consumer: Consumer;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly options: ServiceBusSourceOptions;
  private readonly slots: HandlingSlots;
  /** Per start(): a source stopped and started again must not see the old abort. */
  private stopping: AbortController | undefined;
  private receiver: ServiceBusReceiver | undefined;
  private subscription: { close(): Promise<void> } | undefined;

  constructor(
    deps: { readonly client: ServiceBusClient; readonly consumer: Consumer; readonly clock?: Clock; readonly logger?: Logger },
    options: ServiceBusSourceOptions,
  ) {
    this.client = deps.client;
    this.consumer = deps.consumer;
    this.clock = deps.clock ?? systemClock;
    this.logger = deps.logger ?? deps.consumer.logger;
    this.options = options;
    this.slots = new HandlingSlots(this.consumer, this.clock, options.maxConcurrentCalls ?? 16);
  }

  get inFlight(): number {
    return this.slots.inFlight;
  }

  start(): void {
    if (this.receiver) throw new Error('ServiceBusSource already started');
    const receiverOptions = {
      receiveMode: 'peekLock' as const,
      maxAutoLockRenewalDurationInMs: this.options.maxAutoLockRenewalDurationInMs ?? 5 * 60_000,
    };
    const receiver =
      'queueName' in this.options
        ? this.client.createReceiver(this.options.queueName, receiverOptions)
        : this.client.createReceiver(this.options.topicName, this.options.subscriptionName, receiverOptions);
    const stopping = new AbortController();
    this.stopping = stopping;
    this.receiver = receiver;
    this.subscription = receiver.subscribe(
      {
        // Resolving frees the SDK's slot and credit; the SDK keeps renewing the lock until the
        // message is settled (it stops only on settlement or when processMessage throws).
        processMessage: async (message) => {
          await this.slots.admit(() => this.handle(receiver, message, stopping.signal), stopping.signal);
        },
        processError: async (args) => {
          this.logger.warn({ err: args.error, errorSource: args.errorSource, entityPath: args.entityPath }, 'Service Bus receive error');
        },
      },
      { autoCompleteMessages: false, maxConcurrentCalls: this.slots.limit },
    );
  }

  /**
   * Stops receiving first, then waits for the received messages to settle, then closes the
   * receiver. Closing the subscription only drains the link's credit: the link stays open, so
   * settlement (and the SDK's lock renewal) works until the receiver closes. Kept open instead,
   * every message received while a slow handler finishes would be abandoned at once, redelivered
   * at once and abandoned again until the entity's MaxDeliveryCount dead-letters it.
   */
  async stop(): Promise<void> {
    this.stopping?.abort();
    // What waits for a predecessor is abandoned now, for another instance (it cannot arrive here any
    // more); again once the receiver stopped, for what it handed over meanwhile.
    this.consumer.returnWaiting();
    this.slots.wakeAll();
    await this.subscription?.close();
    this.consumer.returnWaiting();
    await this.slots.settled();
    await this.receiver?.close();
    this.receiver = undefined;
    this.subscription = undefined;
    this.stopping = undefined;
  }

  private async handle(receiver: ServiceBusReceiver, message: ServiceBusReceivedMessage, stopping: AbortSignal): Promise<void> {
    const maxHoldMs = this.options.maxHoldMs ?? 10_000;
    const settlement: Settlement = {
      ack: () => receiver.completeMessage(message),
      nack: async (retryAfterMs) => {
        await holdBeforeRetry(this.clock, retryAfterMs, maxHoldMs, stopping);
        await receiver.abandonMessage(message);
      },
      deadLetter: (reason) => receiver.deadLetterMessage(message, { deadLetterReason: 'HeraldParseError', deadLetterErrorDescription: reason.slice(0, 4096) }),
    };
    // Received while the subscription drained: handed back once, for another instance.
    if (stopping.aborted) {
      await settlement.nack(0);
      return;
    }
    try {
      await this.process(message, settlement);
    } catch (error) {
      // Not an outcome but a bug: the lock expires and the message is delivered again.
      this.logger.error({ err: error, messageId: message.messageId }, 'processing a Service Bus message failed unexpectedly');
    }
  }

  private async process(message: ServiceBusReceivedMessage, settlement: Settlement): Promise<void> {
    await this.consumer.process(
      {
        source: 'service-bus',
        body: message.body,
        contentType: message.contentType,
        applicationProperties: message.applicationProperties,
        enqueuedAt: message.enqueuedTimeUtc?.getTime(),
        // The SDK reports the AMQP delivery-count: earlier failed attempts, 0 on the first delivery.
        deliveryAttempt: (message.deliveryCount ?? 0) + 1,
        transportMessageId: message.messageId === undefined ? undefined : String(message.messageId),
      },
      settlement,
    );
  }
}
