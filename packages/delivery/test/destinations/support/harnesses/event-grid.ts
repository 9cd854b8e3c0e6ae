import type { Destination } from '@herald/model';
import type { PeerFault } from '@herald/testkit';
import { startEventGridPeer, type EventGridPeer } from '@herald/testkit';
import type { Arrival, DestinationHarness } from '../harness.js';

export class EventGridHarness implements DestinationHarness {
  readonly type = 'EventGrid';
  /** Bounded by 1 MB per request, not by count. */
  readonly vendorMaxBatchEntries = Number.POSITIVE_INFINITY;
  /** Event Grid's CloudEvents schema: the Azure SDK names the data's media type on every event. */
  readonly cloudEventAttributesAddedBySdk = { datacontenttype: 'application/json' };
  private peer!: EventGridPeer;
  private receivedOffset = 0;
  private batchOffset = 0;

  async start(): Promise<void> {
    this.peer = await startEventGridPeer();
  }

  stop(): Promise<void> {
    return this.peer.stop();
  }

  envOptions() {
    return { allowInsecureConnections: true };
  }

  unreachable(destination: Destination, closedPort: number) {
    if (destination.type !== 'EventGrid') return { destination, env: this.envOptions() };
    return { destination: { ...destination, uri: `http://127.0.0.1:${closedPort}/api/events` }, env: this.envOptions() };
  }

  /** The peer is one topic: a fresh destination starts reading where the last test stopped. */
  freshDestination(): Destination {
    this.receivedOffset = this.peer.received.length;
    this.batchOffset = this.peer.acceptedBatchSizes.length;
    return { type: 'EventGrid', uri: this.peer.url, accessKey: this.peer.accessKey };
  }

  arrivals(): Promise<Arrival[]> {
    return Promise.resolve(this.peer.received.slice(this.receivedOffset).map((event) => ({ document: event, meta: {} })));
  }

  acceptedBatchSizes(): readonly number[] {
    return this.peer.acceptedBatchSizes.slice(this.batchOffset);
  }

  injectFault(fault: PeerFault, times?: number): void {
    this.peer.faults.inject(fault, times);
  }

  clearFaults(): void {
    this.peer.faults.clear();
  }

  /** A topic URI the endpoint does not serve. */
  unknownEntity(destination: Destination): Destination {
    if (destination.type !== 'EventGrid') return destination;
    return { ...destination, uri: destination.uri.replace('/api/events', '/api/no-such-topic') };
  }

  withBadCredentials(destination: Destination): Destination {
    if (destination.type !== 'EventGrid') return destination;
    return { ...destination, accessKey: Buffer.alloc(32, 9).toString('base64') };
  }
}
