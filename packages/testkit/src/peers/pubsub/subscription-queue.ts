import { randomUUID } from 'node:crypto';
import { Arrivals } from '../arrivals.js';
import { messageBytes, toWire, type PublishedMessage } from './messages.js';
import type { ReceivedMessage } from './wire.js';

/** Flow control a receiver asked for; 0 = no limit (the StreamingPull convention). */
export interface ReceiverLimits {
  readonly maxMessages: number;
  readonly maxBytes: number;
}

/** Something messages are handed to: a StreamingPull stream, or a Pull call waiting for messages. */
export interface Receiver {
  readonly limits: ReceiverLimits;
  /** The lease given to each message delivered to this receiver, in seconds. */
  ackDeadlineSeconds(): number;
  deliver(messages: ReceivedMessage[]): void;
}

export interface SubscriptionSettings {
  readonly ackDeadlineSeconds: number;
  /** Messages with the same ordering key go to one receiver at a time, in publish order. */
  readonly messageOrdering: boolean;
  /** The service only reports `deliveryAttempt` when a dead-letter policy is set. */
  readonly deadLetter: boolean;
}

/** What a test can see of a subscription. */
export interface SubscriptionSnapshot {
  readonly name: string;
  readonly topic: string;
  /** Messages waiting for delivery, including nacked and expired ones waiting for redelivery. */
  readonly pending: number;
  /** Delivered and neither acked, nacked nor expired yet. */
  readonly outstanding: number;
  readonly acked: readonly PublishedMessage[];
  /** Every delivery, redeliveries included. */
  readonly deliveries: number;
}

interface Pending {
  /** Publish order, so a redelivered message goes back in its place. */
  readonly seq: number;
  readonly message: PublishedMessage;
  attempts: number;
}

interface Lease {
  readonly pending: Pending;
  readonly receiver: Receiver;
  readonly orderingKey: string;
  readonly bytes: number;
  timer: NodeJS.Timeout;
}

interface Load {
  messages: number;
  bytes: number;
}

/**
 * One subscription's messages and leases: at-least-once delivery as the service does it. A
 * delivered message is leased for the ack deadline; an ack ends it, a nack (deadline 0) or an
 * expired lease puts the message back for redelivery.
 */
export class SubscriptionQueue {
  /** Becomes `_deleted-topic_` when the topic is deleted, as the service reports it. */
  topic: string;
  private readonly ready: Pending[] = [];
  private readonly leases = new Map<string, Lease>();
  private readonly receivers: Receiver[] = [];
  /** Weak: a Pull call's receiver is dropped once it answered. */
  private readonly loads = new WeakMap<Receiver, Load>();
  private readonly keyOwners = new Map<string, { receiver: Receiver; leases: number }>();
  private readonly acked = new Arrivals<PublishedMessage>();
  private nextSeq = 0;
  private deliveries = 0;
  private cursor = 0;
  private pumpScheduled = false;
  private closed = false;

  constructor(
    readonly name: string,
    topic: string,
    readonly settings: SubscriptionSettings,
  ) {
    this.topic = topic;
  }

  enqueue(message: PublishedMessage): void {
    this.ready.push({ seq: this.nextSeq++, message, attempts: 0 });
    this.schedulePump();
  }

  addReceiver(receiver: Receiver): void {
    this.receivers.push(receiver);
    this.schedulePump();
  }

  /** Its leases keep running until acked or expired, as when a client's stream closes. */
  removeReceiver(receiver: Receiver): void {
    const index = this.receivers.indexOf(receiver);
    if (index >= 0) this.receivers.splice(index, 1);
  }

  /** Leases what `receiver` may take right now (for a Pull call). */
  takeNow(receiver: Receiver): ReceivedMessage[] {
    return this.leaseFor(receiver);
  }

  /** Unknown and expired ack ids are ignored, as the service does without exactly-once delivery. */
  acknowledge(ackIds: readonly string[]): void {
    for (const ackId of ackIds) {
      const lease = this.leases.get(ackId);
      if (lease === undefined) continue;
      this.endLease(ackId, lease);
      this.acked.push(lease.pending.message);
    }
    this.schedulePump();
  }

  /** A deadline of 0 is a nack: the message is redelivered at once. */
  modifyAckDeadline(ackIds: readonly string[], seconds: number): void {
    for (const ackId of ackIds) {
      const lease = this.leases.get(ackId);
      if (lease === undefined) continue;
      if (seconds === 0) {
        this.endLease(ackId, lease);
        this.requeue(lease.pending);
      } else {
        clearTimeout(lease.timer);
        lease.timer = this.expiry(ackId, seconds);
      }
    }
    this.schedulePump();
  }

  snapshot(): SubscriptionSnapshot {
    return {
      name: this.name,
      topic: this.topic,
      pending: this.ready.length,
      outstanding: this.leases.size,
      acked: this.acked.items,
      deliveries: this.deliveries,
    };
  }

  waitForAcked(count: number, timeoutMs: number): Promise<PublishedMessage[]> {
    return this.acked.waitFor(count, timeoutMs, `acks on ${this.name}`);
  }

  close(): void {
    this.closed = true;
    for (const lease of this.leases.values()) clearTimeout(lease.timer);
    this.acked.close(`subscription ${this.name} closed`);
  }

  /** Deliveries are batched: everything one Publish (or ack) made available goes out together. */
  private schedulePump(): void {
    if (this.pumpScheduled || this.closed) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      if (!this.closed) this.pump();
    });
  }

  /** Hands ready messages to receivers with room, starting with a different one each time. */
  private pump(): void {
    const count = this.receivers.length;
    if (count === 0 || this.ready.length === 0) return;
    const order = [...this.receivers.slice(this.cursor % count), ...this.receivers.slice(0, this.cursor % count)];
    this.cursor += 1;
    for (const receiver of order) {
      if (this.ready.length === 0) break;
      const batch = this.leaseFor(receiver);
      if (batch.length > 0) receiver.deliver(batch);
    }
  }

  private leaseFor(receiver: Receiver): ReceivedMessage[] {
    const load = this.loadOf(receiver);
    const taken: ReceivedMessage[] = [];
    /** Keys another receiver holds: later messages with them must wait too, to keep their order. */
    const blockedKeys = new Set<string>();
    let index = 0;
    while (index < this.ready.length && hasRoom(receiver.limits, load)) {
      const pending = this.ready[index] as Pending;
      const key = this.settings.messageOrdering ? pending.message.orderingKey : '';
      if (key !== '' && (blockedKeys.has(key) || (this.keyOwners.get(key)?.receiver ?? receiver) !== receiver)) {
        blockedKeys.add(key);
        index += 1;
        continue;
      }
      this.ready.splice(index, 1);
      taken.push(this.lease(pending, receiver, key, load));
    }
    return taken;
  }

  private lease(pending: Pending, receiver: Receiver, orderingKey: string, load: Load): ReceivedMessage {
    pending.attempts += 1;
    this.deliveries += 1;
    const ackId = randomUUID();
    const bytes = messageBytes(pending.message);
    this.leases.set(ackId, { pending, receiver, orderingKey, bytes, timer: this.expiry(ackId, receiver.ackDeadlineSeconds()) });
    load.messages += 1;
    load.bytes += bytes;
    if (orderingKey !== '') {
      const owner = this.keyOwners.get(orderingKey) ?? { receiver, leases: 0 };
      owner.leases += 1;
      this.keyOwners.set(orderingKey, owner);
    }
    return {
      ackId,
      message: toWire(pending.message),
      deliveryAttempt: this.settings.deadLetter ? pending.attempts : 0,
    };
  }

  private expiry(ackId: string, seconds: number): NodeJS.Timeout {
    const timer = setTimeout(() => {
      const lease = this.leases.get(ackId);
      if (lease === undefined) return;
      this.endLease(ackId, lease);
      this.requeue(lease.pending);
      this.schedulePump();
    }, seconds * 1000);
    // A lease must not keep a test process alive on its own.
    timer.unref();
    return timer;
  }

  private endLease(ackId: string, lease: Lease): void {
    clearTimeout(lease.timer);
    this.leases.delete(ackId);
    const load = this.loads.get(lease.receiver);
    if (load !== undefined) {
      load.messages -= 1;
      load.bytes -= lease.bytes;
    }
    if (lease.orderingKey !== '') {
      const owner = this.keyOwners.get(lease.orderingKey);
      if (owner !== undefined && --owner.leases === 0) this.keyOwners.delete(lease.orderingKey);
    }
  }

  private requeue(pending: Pending): void {
    const index = this.ready.findIndex((other) => other.seq > pending.seq);
    this.ready.splice(index < 0 ? this.ready.length : index, 0, pending);
  }

  private loadOf(receiver: Receiver): Load {
    let load = this.loads.get(receiver);
    if (load === undefined) {
      load = { messages: 0, bytes: 0 };
      this.loads.set(receiver, load);
    }
    return load;
  }
}

/** Byte limits let one message through even when it alone is over them, as the service does. */
function hasRoom(limits: ReceiverLimits, load: Load): boolean {
  if (limits.maxMessages > 0 && load.messages >= limits.maxMessages) return false;
  return limits.maxBytes <= 0 || load.bytes < limits.maxBytes;
}
