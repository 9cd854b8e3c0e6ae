import { randomUUID } from 'node:crypto';
import { Arrivals } from '../arrivals.js';
import { newLockToken } from './lock-token.js';
import { readBody, type AmqpMessage } from './message-codec.js';
import type { ServiceBusPeerMessage, ServiceBusSettlement, ServiceBusSettlementOutcome } from './peer-message.js';

/**
 * One queue-like entity: a queue, a topic, a topic subscription or a dead-letter queue. It keeps
 * messages in sequence order and implements peek-lock: a delivered message is locked for the lock
 * duration, then completed, abandoned, dead-lettered or deferred by its lock token; an expired lock
 * makes it available again. Topics copy every message to each of their subscriptions.
 */
export interface EntityPolicy {
  readonly lockDurationMs: number;
  /** Failed deliveries after which a message is dead-lettered (Service Bus default 10). */
  readonly maxDeliveryCount: number;
}

export interface StoredMessage {
  readonly sequenceNumber: number;
  readonly enqueuedAt: Date;
  readonly sizeInBytes: number;
  readonly arrivedInBatch: boolean;
  amqp: AmqpMessage;
  deliveryCount: number;
  state: ServiceBusPeerMessage['state'];
  lock: { readonly token: string; lockedUntil: Date; timer: NodeJS.Timeout } | undefined;
}

export type LockedSettlement = { readonly ok: true } | { readonly ok: false; readonly reason: 'lock-lost' };

const LOCK_LOST: LockedSettlement = { ok: false, reason: 'lock-lost' };
const SETTLED: LockedSettlement = { ok: true };

export class Entity {
  readonly arrivals = new Arrivals<ServiceBusPeerMessage>();
  readonly settlementLog = new Arrivals<ServiceBusSettlement>();
  readonly subscriptions = new Set<Entity>();
  /** Undefined for a dead-letter queue itself. */
  readonly deadLetterQueue: Entity | undefined;
  private readonly available: StoredMessage[] = [];
  private readonly locked = new Map<string, StoredMessage>();
  private readonly deferred: StoredMessage[] = [];
  private nextSequenceNumber = 1;

  constructor(
    readonly path: string,
    private readonly policy: EntityPolicy,
    /** Called whenever a message becomes available, so deliveries can be pumped. */
    private readonly onAvailable: (entity: Entity) => void,
    isDeadLetterQueue = false,
  ) {
    this.deadLetterQueue = isDeadLetterQueue ? undefined : new Entity(`${path}/$DeadLetterQueue`, policy, onAvailable, true);
  }

  enqueue(amqp: AmqpMessage, info: { readonly sizeInBytes: number; readonly arrivedInBatch: boolean }): ServiceBusPeerMessage {
    // The broker gives every message an id when the sender set none (the SDK relies on it, e.g. to
    // track lock renewal), in the 32-hex-digit form the service uses.
    if (amqp['message_id'] === undefined || amqp['message_id'] === null) {
      amqp = { ...amqp, message_id: randomUUID().replace(/-/g, '') } as AmqpMessage;
    }
    const stored: StoredMessage = {
      sequenceNumber: this.nextSequenceNumber++,
      enqueuedAt: new Date(),
      sizeInBytes: info.sizeInBytes,
      arrivedInBatch: info.arrivedInBatch,
      amqp,
      deliveryCount: 0,
      state: 'available',
      lock: undefined,
    };
    this.available.push(stored);
    const view = describe(stored);
    this.arrivals.push(view);
    // A topic forwards to every subscription (no filter rules: every subscription matches all).
    for (const subscription of this.subscriptions) subscription.enqueue({ ...amqp }, info);
    this.onAvailable(this);
    return view;
  }

  hasAvailable(): boolean {
    return this.available.length > 0;
  }

  /** Removes the next available message for delivery in receiveAndDelete mode. */
  takeToDelete(): StoredMessage | undefined {
    const message = this.available.shift();
    if (message === undefined) return undefined;
    message.state = 'removed';
    this.record(message, 'received-and-deleted');
    return message;
  }

  /** Locks the next available message for a peek-lock delivery. */
  takeToLock(): StoredMessage | undefined {
    const message = this.available.shift();
    if (message === undefined) return undefined;
    const token = newLockToken();
    const lockedUntil = new Date(Date.now() + this.policy.lockDurationMs);
    const timer = setTimeout(() => this.expireLock(token), this.policy.lockDurationMs);
    timer.unref();
    message.lock = { token, lockedUntil, timer };
    message.state = 'locked';
    this.locked.set(token, message);
    return message;
  }

  complete(lockToken: string): LockedSettlement {
    const message = this.unlock(lockToken);
    if (message === undefined) return LOCK_LOST;
    message.state = 'removed';
    this.record(message, 'completed');
    return SETTLED;
  }

  /** Makes the message available again; `propertiesToModify` are merged into its application properties. */
  abandon(lockToken: string, propertiesToModify?: Readonly<Record<string, unknown>>): LockedSettlement {
    const message = this.unlock(lockToken);
    if (message === undefined) return LOCK_LOST;
    if (propertiesToModify !== undefined) mergeApplicationProperties(message, propertiesToModify);
    this.retry(message, 'abandoned');
    return SETTLED;
  }

  deadLetter(lockToken: string, reason?: string, description?: string): LockedSettlement {
    const message = this.unlock(lockToken);
    if (message === undefined) return LOCK_LOST;
    this.moveToDeadLetterQueue(message, reason, description);
    return SETTLED;
  }

  defer(lockToken: string): LockedSettlement {
    const message = this.unlock(lockToken);
    if (message === undefined) return LOCK_LOST;
    message.state = 'deferred';
    this.deferred.push(message);
    this.record(message, 'deferred');
    return SETTLED;
  }

  /** Extends a lock by the lock duration; undefined when the lock is no longer held. */
  renewLock(lockToken: string): Date | undefined {
    const message = this.locked.get(lockToken);
    if (message?.lock === undefined) return undefined;
    clearTimeout(message.lock.timer);
    message.lock.lockedUntil = new Date(Date.now() + this.policy.lockDurationMs);
    message.lock.timer = setTimeout(() => this.expireLock(lockToken), this.policy.lockDurationMs);
    message.lock.timer.unref();
    return message.lock.lockedUntil;
  }

  /** Messages still in the entity (available, locked or deferred), in sequence order. */
  pending(): ServiceBusPeerMessage[] {
    return [...this.available, ...this.locked.values(), ...this.deferred].sort((a, b) => a.sequenceNumber - b.sequenceNumber).map(describe);
  }

  /** Stops lock timers and fails pending waits (the peer stopped or the entity was deleted). */
  close(reason: string): void {
    for (const message of this.locked.values()) if (message.lock) clearTimeout(message.lock.timer);
    this.arrivals.close(reason);
    this.settlementLog.close(reason);
    this.deadLetterQueue?.close(reason);
  }

  private unlock(lockToken: string): StoredMessage | undefined {
    const message = this.locked.get(lockToken);
    if (message === undefined) return undefined;
    this.locked.delete(lockToken);
    if (message.lock) clearTimeout(message.lock.timer);
    message.lock = undefined;
    return message;
  }

  private expireLock(lockToken: string): void {
    const message = this.unlock(lockToken);
    if (message !== undefined) this.retry(message, 'lock-expired');
  }

  /** A failed delivery: count it, then dead-letter or make the message available again. */
  private retry(message: StoredMessage, outcome: 'abandoned' | 'lock-expired'): void {
    message.deliveryCount += 1;
    this.record(message, outcome);
    if (message.deliveryCount >= this.policy.maxDeliveryCount) {
      this.moveToDeadLetterQueue(message, 'MaxDeliveryCountExceeded', `Message could not be consumed after ${this.policy.maxDeliveryCount} delivery attempts.`);
      return;
    }
    message.state = 'available';
    // Back at its place in sequence order, ahead of newer messages, as the service does.
    const position = this.available.findIndex((other) => other.sequenceNumber > message.sequenceNumber);
    this.available.splice(position === -1 ? this.available.length : position, 0, message);
    this.onAvailable(this);
  }

  private moveToDeadLetterQueue(message: StoredMessage, reason: string | undefined, description: string | undefined): void {
    message.state = 'removed';
    this.record(message, 'dead-lettered', reason, description);
    if (this.deadLetterQueue === undefined) return; // a dead-letter queue has no dead-letter queue
    // The service records the reason in these application properties and the source entity in an annotation.
    const deadLettered: AmqpMessage = {
      ...message.amqp,
      application_properties: {
        ...(message.amqp['application_properties'] as Record<string, unknown> | undefined),
        ...(reason !== undefined ? { DeadLetterReason: reason } : {}),
        ...(description !== undefined ? { DeadLetterErrorDescription: description } : {}),
      },
      message_annotations: {
        ...(message.amqp['message_annotations'] as Record<string, unknown> | undefined),
        'x-opt-deadletter-source': this.path,
      },
    } as AmqpMessage;
    this.deadLetterQueue.enqueue(deadLettered, { sizeInBytes: message.sizeInBytes, arrivedInBatch: message.arrivedInBatch });
  }

  private record(message: StoredMessage, outcome: ServiceBusSettlementOutcome, reason?: string, description?: string): void {
    this.settlementLog.push({
      outcome,
      sequenceNumber: message.sequenceNumber,
      messageId: describe(message).messageId,
      deliveryCount: message.deliveryCount,
      at: new Date(),
      ...(reason !== undefined ? { deadLetterReason: reason } : {}),
      ...(description !== undefined ? { deadLetterErrorDescription: description } : {}),
    });
  }
}

function mergeApplicationProperties(message: StoredMessage, properties: Readonly<Record<string, unknown>>): void {
  message.amqp = {
    ...message.amqp,
    application_properties: { ...(message.amqp['application_properties'] as Record<string, unknown> | undefined), ...properties },
  } as AmqpMessage;
}

/** A snapshot of a stored message in SDK vocabulary. */
export function describe(message: StoredMessage): ServiceBusPeerMessage {
  const amqp = message.amqp;
  const { body, rawBody } = readBody(amqp.body);
  return {
    body,
    rawBody,
    contentType: optionalString(amqp['content_type']),
    messageId: amqp['message_id'] as ServiceBusPeerMessage['messageId'],
    correlationId: amqp['correlation_id'] as ServiceBusPeerMessage['correlationId'],
    subject: optionalString(amqp['subject']),
    to: optionalString(amqp['to']),
    replyTo: optionalString(amqp['reply_to']),
    sessionId: optionalString(amqp['group_id']),
    timeToLiveMs: typeof amqp['ttl'] === 'number' ? amqp['ttl'] : undefined,
    applicationProperties: { ...(amqp['application_properties'] as Record<string, unknown> | undefined) },
    sequenceNumber: message.sequenceNumber,
    enqueuedAt: message.enqueuedAt,
    deliveryCount: message.deliveryCount,
    sizeInBytes: message.sizeInBytes,
    arrivedInBatch: message.arrivedInBatch,
    state: message.state,
  };
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
