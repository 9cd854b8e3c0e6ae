import { randomBytes } from 'node:crypto';
import rhea, { type Delivery, type EventContext, type Sender } from 'rhea';
import type { FaultSchedule } from '../faults.js';
import { Condition, entityNotFound, faultFailure } from './conditions.js';
import type { Entity, LockedSettlement, StoredMessage } from './entity.js';
import { deliveryTagFor, lockTokenFromDeliveryTag } from './lock-token.js';
import type { AmqpMessage } from './message-codec.js';
import { creditOf, outcomes, remoteOutcome, settleOutgoing, socketOf, type Outcome } from './rhea-internals.js';

/** `peekLock`: deliveries are locked until settled. `receiveAndDelete`: sent pre-settled and removed. */
export type ReceiveMode = 'peekLock' | 'receiveAndDelete';

interface Consumer {
  readonly link: Sender;
  readonly entity: Entity;
  readonly mode: ReceiveMode;
  /** The receiver asked to drain: use the credit or give it back once nothing is left to send. */
  drainRequested: boolean;
}

type DispositionKind = 'accepted' | 'released' | 'modified' | 'rejected';
const DISPOSITIONS: readonly DispositionKind[] = ['accepted', 'released', 'modified', 'rejected'];

export interface DispatcherDependencies {
  readonly faults: FaultSchedule;
  /** `sb://host:port/<path>`, for error descriptions. */
  readonly resourceUri: (path: string) => string;
}

/**
 * Delivers stored messages to receiver links within the credit each receiver grants, round-robin
 * between the receivers of an entity, and applies the receivers' settlements (peek-lock).
 */
export class DeliveryDispatcher {
  private readonly consumers = new Map<Entity, Consumer[]>();
  private readonly scheduled = new Set<Entity>();

  constructor(private readonly dependencies: DispatcherDependencies) {}

  attach(link: Sender, entity: Entity, mode: ReceiveMode): void {
    const consumer: Consumer = { link, entity, mode, drainRequested: false };
    this.consumers.set(entity, [...(this.consumers.get(entity) ?? []), consumer]);
    link.on('sendable', () => this.schedule(entity));
    link.on('sender_draining', () => {
      consumer.drainRequested = true;
      this.schedule(entity);
    });
    for (const kind of DISPOSITIONS) {
      link.on(kind, (context: EventContext) => {
        if (context.delivery) this.onDisposition(consumer, context.delivery, kind);
      });
    }
    link.on('sender_close', () => this.detach(link));
    this.schedule(entity);
  }

  detach(link: Sender): void {
    for (const [entity, list] of this.consumers) {
      const remaining = list.filter((consumer) => consumer.link !== link);
      if (remaining.length === list.length) continue;
      if (remaining.length === 0) this.consumers.delete(entity);
      else this.consumers.set(entity, remaining);
    }
  }

  /** Closes every receiver of a deleted entity with the error the service gives. */
  closeEntity(entity: Entity): void {
    for (const consumer of this.consumers.get(entity) ?? []) {
      consumer.link.close(entityNotFound(this.dependencies.resourceUri(entity.path)));
    }
    this.consumers.delete(entity);
  }

  /**
   * Pumps at most once per turn of the event loop. rhea transfers what `send` queued, and lowers the
   * link credit, on process.nextTick, so by the time this runs the credit reflects earlier sends.
   */
  schedule(entity: Entity): void {
    if (this.scheduled.has(entity)) return;
    this.scheduled.add(entity);
    setImmediate(() => {
      this.scheduled.delete(entity);
      this.pump(entity);
    });
  }

  private pump(entity: Entity): void {
    const consumers = (this.consumers.get(entity) ?? []).filter((consumer) => consumer.link.is_open());
    const budget = new Map(consumers.map((consumer) => [consumer, consumer.link.sendable() ? creditOf(consumer.link) : 0]));
    let delivered = true;
    while (delivered && entity.hasAvailable()) {
      delivered = false;
      for (const consumer of consumers) {
        const credit = budget.get(consumer) ?? 0;
        if (credit <= 0 || !entity.hasAvailable()) continue;
        this.deliver(consumer);
        budget.set(consumer, credit - 1);
        delivered = true;
      }
    }
    for (const consumer of consumers) {
      if (!consumer.drainRequested) continue;
      consumer.drainRequested = false;
      consumer.link.set_drained(true);
    }
  }

  private deliver(consumer: Consumer): void {
    if (consumer.mode === 'receiveAndDelete') {
      const message = consumer.entity.takeToDelete();
      if (message) consumer.link.send(brokeredMessage(message), randomBytes(16));
      return;
    }
    const message = consumer.entity.takeToLock();
    if (message?.lock) consumer.link.send(brokeredMessage(message), deliveryTagFor(message.lock.token));
  }

  private onDisposition(consumer: Consumer, delivery: Delivery, kind: DispositionKind): void {
    const fault = this.dependencies.faults.takeIf(['throttled', 'server-error', 'unknown-entity', 'bad-credentials', 'hang', 'drop-connection']);
    if (fault?.kind === 'hang') return; // never confirmed: the SDK's settle call times out
    if (fault?.kind === 'drop-connection') {
      socketOf(consumer.link.connection)?.destroy();
      return;
    }
    if (fault !== undefined && fault.kind !== 'payload-too-large') {
      settleOutgoing(delivery, outcomes.rejected(faultFailure(fault.kind, this.dependencies.resourceUri(consumer.entity.path))));
      return;
    }
    const lockToken = lockTokenFromDeliveryTag(delivery.tag);
    const { result, outcome } = applySettlement(consumer.entity, lockToken, kind, remoteOutcome(delivery));
    settleOutgoing(
      delivery,
      result.ok
        ? outcome
        : outcomes.rejected({
            condition: Condition.messageLockLost,
            description: 'The lock supplied is invalid. Either the lock expired, or the message has already been removed from the queue.',
          }),
    );
  }
}

function applySettlement(
  entity: Entity,
  lockToken: string,
  kind: DispositionKind,
  remote: ReturnType<typeof remoteOutcome>,
): { result: LockedSettlement; outcome: Outcome } {
  switch (kind) {
    case 'accepted':
      return { result: entity.complete(lockToken), outcome: outcomes.accepted() };
    case 'released':
      return { result: entity.abandon(lockToken), outcome: outcomes.released() };
    case 'modified':
      // The SDK abandons with undeliverable-here false and defers with it true.
      return remote.undeliverable_here
        ? { result: entity.defer(lockToken), outcome: outcomes.modified(true) }
        : { result: entity.abandon(lockToken, remote.message_annotations), outcome: outcomes.modified(false) };
    case 'rejected': {
      // The SDK dead-letters by rejecting with com.microsoft:dead-letter and the reason in `info`;
      // any other rejection also means "this message cannot be processed", which dead-letters it.
      const info = remote.error?.info ?? {};
      const deadLetterByClient = remote.error?.condition === Condition.deadLetter;
      const reason = deadLetterByClient ? optionalString(info['DeadLetterReason']) : remote.error?.condition;
      const description = deadLetterByClient ? optionalString(info['DeadLetterErrorDescription']) : remote.error?.description;
      return {
        result: entity.deadLetter(lockToken, reason, description),
        outcome: outcomes.rejected(),
      };
    }
  }
}

/** The stored message with the annotations the broker adds on delivery. */
function brokeredMessage(message: StoredMessage): AmqpMessage {
  return {
    ...message.amqp,
    delivery_count: message.deliveryCount,
    first_acquirer: message.deliveryCount === 0,
    message_annotations: {
      ...(message.amqp['message_annotations'] as Record<string, unknown> | undefined),
      'x-opt-sequence-number': rhea.types.wrap_long(message.sequenceNumber),
      'x-opt-enqueued-time': message.enqueuedAt,
      ...(message.lock ? { 'x-opt-locked-until': message.lock.lockedUntil } : {}),
    },
  } as AmqpMessage;
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
