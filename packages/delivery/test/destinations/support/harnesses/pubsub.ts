import type { Destination } from '@herald/model';
import type { PeerFault } from '@herald/testkit';
import { startPubSubPeer, type PubSubPeer } from '@herald/testkit';
import type { Arrival, DestinationHarness } from '../harness.js';

export class PubSubHarness implements DestinationHarness {
  readonly type = 'ProviderCPubSub';
  /** Publish: 1,000 messages. */
  readonly vendorMaxBatchEntries = 1_000;
  private peer!: PubSubPeer;
  private topic = '';
  private counter = 0;

  async start(): Promise<void> {
    this.peer = await startPubSubPeer();
  }

  stop(): Promise<void> {
    return this.peer.stop();
  }

  envOptions() {
    return { endpoints: { pubsub: this.peer.apiEndpoint } };
  }

  unreachable(destination: Destination, closedPort: number) {
    return { destination, env: { endpoints: { pubsub: `127.0.0.1:${closedPort}` } } };
  }

  freshDestination(): Destination {
    this.topic = `herald-topic-${++this.counter}`;
    this.peer.createTopic(this.topic);
    return { type: 'ProviderCPubSub', projectId: this.peer.projectId, topic: this.topic };
  }

  arrivals(): Promise<Arrival[]> {
    return Promise.resolve(
      this.peer.published(this.topic).map((message) => ({
        document: JSON.parse(message.data.toString('utf8')) as unknown,
        meta: { attributes: message.attributes },
      })),
    );
  }

  acceptedBatchSizes(): readonly number[] {
    return this.peer.publishBatchSizes(this.topic);
  }

  injectFault(fault: PeerFault, times?: number): void {
    this.peer.faults.inject(fault, times);
  }

  clearFaults(): void {
    this.peer.faults.clear();
  }

  unknownEntity(destination: Destination): Destination {
    this.peer.deleteTopic(this.topic);
    return destination;
  }

  /**
   * A message with neither data nor attributes: Pub/Sub refuses the whole Publish request with
   * INVALID_ARGUMENT, so the adapter must narrow the failure down to this one entry.
   */
  invalidNativeMessage(): unknown {
    return { data: '', attributes: {} };
  }
}
