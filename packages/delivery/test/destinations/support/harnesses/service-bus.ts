import type { Destination } from '@herald/model';
import type { PeerFault } from '@herald/testkit';
import { startServiceBusPeer, type ServiceBusPeer } from '@herald/testkit';
import type { Arrival, DestinationHarness } from '../harness.js';

export class ServiceBusHarness implements DestinationHarness {
  readonly type = 'ProviderBServiceBus';
  /** Bounded by bytes (the link's max message size), not by count. */
  readonly vendorMaxBatchEntries = Number.POSITIVE_INFINITY;
  private peer!: ServiceBusPeer;
  private entity = '';
  private counter = 0;

  async start(): Promise<void> {
    this.peer = await startServiceBusPeer();
  }

  stop(): Promise<void> {
    return this.peer.stop();
  }

  envOptions() {
    return {};
  }

  unreachable(destination: Destination, closedPort: number) {
    if (destination.type !== 'ProviderBServiceBus') return { destination, env: {} };
    const connectionString = destination.connectionString.replace(/Endpoint=sb:\/\/[^;]*/, `Endpoint=sb://127.0.0.1:${closedPort}`);
    return { destination: { ...destination, connectionString }, env: {} };
  }

  freshDestination(): Destination {
    this.entity = `herald-queue-${++this.counter}`;
    this.peer.createEntity(this.entity);
    return { type: 'ProviderBServiceBus', connectionString: this.peer.connectionString(this.entity) };
  }

  arrivals(): Promise<Arrival[]> {
    return Promise.resolve(
      this.peer.received(this.entity).map((message) => ({
        document: JSON.parse((message.rawBody ?? Buffer.alloc(0)).toString('utf8')) as unknown,
        meta: { contentType: message.contentType, messageId: message.messageId, arrivedInBatch: message.arrivedInBatch },
      })),
    );
  }

  acceptedBatchSizes(): undefined {
    return undefined;
  }

  injectFault(fault: PeerFault, times?: number): void {
    this.peer.faults.inject(fault, times);
  }

  clearFaults(): void {
    this.peer.faults.clear();
  }

  unknownEntity(destination: Destination): Destination {
    this.peer.deleteEntity(this.entity);
    return destination;
  }

  withBadCredentials(destination: Destination): Destination {
    if (destination.type !== 'ProviderBServiceBus') return destination;
    const wrongKey = Buffer.alloc(32, 7).toString('base64');
    return { ...destination, connectionString: destination.connectionString.replace(/SharedAccessKey=[^;]*/, `SharedAccessKey=${wrongKey}`) };
  }
}
