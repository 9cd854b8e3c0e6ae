import { Arrivals } from '../arrivals.js';
import { acceptMessage, type PublishedMessage } from './messages.js';
import { SubscriptionQueue, type SubscriptionSettings } from './subscription-queue.js';
import type { WirePubsubMessage } from './wire.js';

/** The topic a subscription reports once its topic was deleted. */
export const DELETED_TOPIC = '_deleted-topic_';

/**
 * Topics, subscriptions and what was published, by full resource name. A message published to a
 * topic is copied to every subscription attached at that moment, as the service does.
 */
export class PubSubState {
  private readonly topics = new Map<string, Set<SubscriptionQueue>>();
  private readonly subscriptions = new Map<string, SubscriptionQueue>();
  /** Kept across topic deletion, so a test can still inspect what was published. */
  private readonly logs = new Map<string, Arrivals<PublishedMessage>>();
  private readonly batches = new Map<string, number[]>();
  /** The service's message ids are decimal strings. */
  private nextMessageId = 1;

  hasTopic(topic: string): boolean {
    return this.topics.has(topic);
  }

  /** False when it already exists. */
  createTopic(topic: string): boolean {
    if (this.topics.has(topic)) return false;
    this.topics.set(topic, new Set());
    return true;
  }

  /** False when it did not exist. Its subscriptions stay, detached. */
  deleteTopic(topic: string): boolean {
    const attached = this.topics.get(topic);
    if (attached === undefined) return false;
    for (const subscription of attached) subscription.topic = DELETED_TOPIC;
    this.topics.delete(topic);
    return true;
  }

  subscription(name: string): SubscriptionQueue | undefined {
    return this.subscriptions.get(name);
  }

  /** Undefined when the name is taken; throws when the topic does not exist. */
  createSubscription(name: string, topic: string, settings: SubscriptionSettings): SubscriptionQueue | undefined {
    const attached = this.topics.get(topic);
    if (attached === undefined) throw new Error(`no topic ${topic}`);
    if (this.subscriptions.has(name)) return undefined;
    const queue = new SubscriptionQueue(name, topic, settings);
    this.subscriptions.set(name, queue);
    attached.add(queue);
    return queue;
  }

  /** False when it did not exist. */
  deleteSubscription(name: string): boolean {
    const queue = this.subscriptions.get(name);
    if (queue === undefined) return false;
    this.topics.get(queue.topic)?.delete(queue);
    this.subscriptions.delete(name);
    queue.close();
    return true;
  }

  /** Stores the messages, fans them out to the topic's subscriptions and returns their ids. */
  publish(topic: string, messages: readonly WirePubsubMessage[]): string[] {
    const attached = this.topics.get(topic);
    if (attached === undefined) throw new Error(`no topic ${topic}`);
    const publishTime = new Date();
    const accepted = messages.map((message) => acceptMessage(message, String(this.nextMessageId++), publishTime));
    for (const subscription of attached) for (const message of accepted) subscription.enqueue(message);
    this.log(topic).push(...accepted);
    this.batchSizesOf(topic).push(accepted.length);
    return accepted.map((message) => message.messageId);
  }

  log(topic: string): Arrivals<PublishedMessage> {
    let log = this.logs.get(topic);
    if (log === undefined) {
      log = new Arrivals();
      this.logs.set(topic, log);
    }
    return log;
  }

  batchSizesOf(topic: string): number[] {
    let sizes = this.batches.get(topic);
    if (sizes === undefined) {
      sizes = [];
      this.batches.set(topic, sizes);
    }
    return sizes;
  }

  close(): void {
    for (const queue of this.subscriptions.values()) queue.close();
    for (const log of this.logs.values()) log.close('Pub/Sub peer stopped');
  }
}
