import type { Destination } from '@herald/model';
import type { PeerFault } from '@herald/testkit';
import { startEventBridgePeer, type EventBridgePeer } from '@herald/testkit';
import { DEFAULT_PARTNER_NAME } from '../../../../src/destinations/environment.js';
import { partnerEventSourceName } from '../../../../src/destinations/eventbridge/source-name.js';
import type { EncodeContext } from '../../../../src/destinations/port.js';
import { PROJECT_KEY } from '../payloads.js';
import type { Arrival, DestinationHarness } from '../harness.js';

const HERALD_ACCESS_KEY_ID = 'AKIAHERALDPARTNER001';

export class EventBridgeHarness implements DestinationHarness {
  readonly type = 'EventBridge';
  /** PutPartnerEvents: 20 entries. */
  readonly vendorMaxBatchEntries = 20;
  private peer!: EventBridgePeer;
  private source = '';
  private batchOffset = 0;

  async start(): Promise<void> {
    // The peer checks Herald's own access key id; a known source registry makes unknown sources fail.
    this.peer = await startEventBridgePeer({ accessKeyId: HERALD_ACCESS_KEY_ID, partnerEventSources: [] });
  }

  stop(): Promise<void> {
    return this.peer.stop();
  }

  envOptions() {
    return {
      endpoints: { eventBridge: this.peer.endpoint },
      eventBridge: {
        credentials: { accessKeyId: HERALD_ACCESS_KEY_ID, secretAccessKey: 'herald-partner-secret' },
        // The peer models PutPartnerEvents only; sources are registered by the harness.
        createPartnerEventSources: false,
      },
    };
  }

  unreachable(destination: Destination, closedPort: number) {
    const env = this.envOptions();
    return { destination, env: { ...env, endpoints: { eventBridge: `http://127.0.0.1:${closedPort}` } } };
  }

  freshDestination(context: EncodeContext): Destination {
    this.source = partnerEventSourceName(DEFAULT_PARTNER_NAME, PROJECT_KEY, context.subscriptionId);
    this.peer.createPartnerEventSource(this.source);
    this.batchOffset = this.peer.batchSizes.length;
    return { type: 'EventBridge', region: 'eu-central-1', accountId: '123456789012' };
  }

  arrivals(): Promise<Arrival[]> {
    return Promise.resolve(
      this.peer.received
        .filter((event) => event.Source === this.source)
        .map((event) => ({ document: event.Detail, meta: { DetailType: event.DetailType, Source: event.Source, Time: event.Time } })),
    );
  }

  acceptedBatchSizes(): readonly number[] {
    return this.peer.batchSizes.slice(this.batchOffset);
  }

  receivedBatchSizes(): readonly number[] {
    // Every call the peer answered with 200 carried all its entries (failed ones included).
    return this.peer.batchSizes.slice(this.batchOffset);
  }

  injectFault(fault: PeerFault, times?: number): void {
    this.peer.faults.inject(fault, times);
  }

  clearFaults(): void {
    this.peer.faults.clear();
  }

  /** The partner event source was deleted on the receiving side. */
  unknownEntity(destination: Destination): Destination {
    this.peer.deletePartnerEventSource(this.source);
    return destination;
  }

  failEntries(indices: readonly number[]): void {
    this.peer.failEntries(indices);
  }

  /** `Detail` must be a JSON object (`MalformedDetail` per entry). */
  invalidNativeMessage(): unknown {
    return { source: this.source, detailType: 'Broken', detail: '[1,2,3]', time: new Date(0).toISOString() };
  }
}
