import { Server, ServerCredentials } from '@grpc/grpc-js';
import { FaultSchedule, type FaultInjector, type PeerFault } from '../faults.js';
import { startConnectionProxy } from './connection-proxy.js';
import { loadPubSubServices } from './descriptors.js';
import type { PublishedMessage } from './messages.js';
import { subscriptionPath, topicPath } from './names.js';
import { publisherService } from './publisher-service.js';
import type { PubSubRpc, RpcContext } from './rpc.js';
import { PubSubState } from './state.js';
import { subscriberService } from './subscriber-service.js';
import type { SubscriptionSnapshot } from './subscription-queue.js';

export interface PubSubPeerOptions {
  /** Port on 127.0.0.1; default: any free port. */
  readonly port?: number;
  /** Default 'herald-test'; helpers turn short names into names in this project. */
  readonly projectId?: string;
  /** The service's limit per Publish request: 10 MB. */
  readonly maxRequestBytes?: number;
  /** The service's limit: 1,000 messages per Publish request. */
  readonly maxMessagesPerPublish?: number;
  /** How long a Pull call without messages waits before answering empty; default 2 s. */
  readonly pullWaitMs?: number;
}

export interface PeerSubscriptionOptions {
  /** Default 10 s, as the service. */
  readonly ackDeadlineSeconds?: number;
  readonly enableMessageOrdering?: boolean;
}

export interface PubSubPeer {
  /** Give this to `new PubSub({ apiEndpoint, projectId })`: '127.0.0.1:PORT', which the SDK reaches over insecure gRPC. */
  readonly apiEndpoint: string;
  readonly projectId: string;
  /** Faults for every RPC. */
  readonly faults: FaultInjector;
  /** Faults for one RPC only; they take precedence over `faults`. */
  faultsOn(rpc: PubSubRpc): FaultInjector;
  /** Calls that reached the peer, answered or not; per RPC when given one. */
  requests(rpc?: PubSubRpc): number;
  /** Returns the full topic name; a no-op when it exists. Names may be short or full. */
  createTopic(name: string): string;
  deleteTopic(name: string): void;
  /** Returns the full subscription name. Only messages published after this are delivered to it. */
  createSubscription(name: string, topic: string, options?: PeerSubscriptionOptions): string;
  /** Everything accepted on a topic, in publish order (kept after the topic is deleted). */
  published(topic: string): readonly PublishedMessage[];
  /** Message count of each accepted Publish request on the topic, in order (to assert batching). */
  publishBatchSizes(topic: string): readonly number[];
  /** Resolves with everything published on the topic once at least `count` messages were accepted. */
  waitFor(topic: string, count: number, timeoutMs?: number): Promise<PublishedMessage[]>;
  subscription(name: string): SubscriptionSnapshot;
  /** Resolves with the acked messages once at least `count` were acked on the subscription. */
  waitForAcked(subscription: string, count: number, timeoutMs?: number): Promise<PublishedMessage[]>;
  stop(): Promise<void>;
}

const DEFAULT_PROJECT = 'herald-test';
const TEN_MEGABYTES = 10 * 1_000_000;
const MAX_MESSAGES_PER_PUBLISH = 1_000;
/** How long a wait for arrivals lasts unless told: a bound for failing tests, generous for a loaded 2-core CI machine. */
const DEFAULT_WAIT_MS = 15_000;

/** Starts a local Pub/Sub service (Publisher and Subscriber) speaking gRPC with the SDK's own descriptors. */
export async function startPubSubPeer(options: PubSubPeerOptions = {}): Promise<PubSubPeer> {
  const projectId = options.projectId ?? DEFAULT_PROJECT;
  const maxRequestBytes = options.maxRequestBytes ?? TEN_MEGABYTES;
  const state = new PubSubState();
  const faults = new FaultSchedule();
  const rpcFaults = new Map<PubSubRpc, FaultSchedule>();
  const counts = new Map<PubSubRpc, number>();
  const services = loadPubSubServices();
  let dropConnection: (peer: string) => void = () => undefined;

  const context: RpcContext = {
    state,
    maxRequestBytes,
    maxMessagesPerPublish: options.maxMessagesPerPublish ?? MAX_MESSAGES_PER_PUBLISH,
    pullWaitMs: options.pullWaitMs ?? 2_000,
    wireSize: services.wireSize,
    begin(rpc): PeerFault | undefined {
      counts.set(rpc, (counts.get(rpc) ?? 0) + 1);
      return rpcFaults.get(rpc)?.take() ?? faults.take();
    },
    dropConnection: (peer) => dropConnection(peer),
  };

  const server = new Server({
    // Well above the service's limit, so an oversized request reaches the peer and gets the
    // service's INVALID_ARGUMENT instead of grpc-js's own RESOURCE_EXHAUSTED (default 4 MiB).
    'grpc.max_receive_message_length': maxRequestBytes * 2 + 1_048_576,
  });
  server.addService(services.publisher, publisherService(context));
  server.addService(services.subscriber, subscriberService(context));
  const grpcPort = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, port) => (error ? reject(error) : resolve(port))),
  );
  const proxy = await startConnectionProxy(grpcPort, options.port);
  dropConnection = (peer) => proxy.drop(peer);

  const topic = (name: string) => topicPath(projectId, name);
  const subscriptionName = (name: string) => subscriptionPath(projectId, name);
  const queueOf = (name: string) => {
    const queue = state.subscription(subscriptionName(name));
    if (queue === undefined) throw new Error(`no subscription ${subscriptionName(name)} on the Pub/Sub peer`);
    return queue;
  };

  return {
    apiEndpoint: `127.0.0.1:${proxy.port}`,
    projectId,
    faults,
    faultsOn(rpc) {
      let schedule = rpcFaults.get(rpc);
      if (schedule === undefined) {
        schedule = new FaultSchedule();
        rpcFaults.set(rpc, schedule);
      }
      return schedule;
    },
    requests(rpc) {
      if (rpc !== undefined) return counts.get(rpc) ?? 0;
      return [...counts.values()].reduce((sum, count) => sum + count, 0);
    },
    createTopic(name) {
      state.createTopic(topic(name));
      return topic(name);
    },
    deleteTopic(name) {
      state.deleteTopic(topic(name));
    },
    createSubscription(name, topicName, subscriptionOptions = {}) {
      const created = state.createSubscription(subscriptionName(name), topic(topicName), {
        ackDeadlineSeconds: subscriptionOptions.ackDeadlineSeconds ?? 10,
        messageOrdering: subscriptionOptions.enableMessageOrdering ?? false,
        deadLetter: false,
      });
      if (created === undefined) throw new Error(`subscription ${subscriptionName(name)} already exists`);
      return created.name;
    },
    published: (name) => state.log(topic(name)).items,
    publishBatchSizes: (name) => state.batchSizesOf(topic(name)),
    waitFor: (name, count, timeoutMs = DEFAULT_WAIT_MS) => state.log(topic(name)).waitFor(count, timeoutMs, `messages on ${topic(name)}`),
    subscription: (name) => queueOf(name).snapshot(),
    waitForAcked: (name, count, timeoutMs = DEFAULT_WAIT_MS) => queueOf(name).waitForAcked(count, timeoutMs),
    async stop() {
      state.close();
      // Cancels hung calls and open streams; clients see UNAVAILABLE or CANCELLED.
      server.forceShutdown();
      await proxy.close();
    },
  };
}
