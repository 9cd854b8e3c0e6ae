import type { Destination, DestinationType } from '@herald/model';
import type { PeerFault } from '@herald/testkit';
import type { EncodeContext } from '../../../src/destinations/port.js';
import type { DestinationEnvironmentOptions } from '../../../src/index.js';

/** What a consumer of the destination would receive: the delivered JSON document plus binding metadata. */
export interface Arrival {
  /** The parsed delivered document: the Platform payload, or the structured-mode CloudEvent. */
  document: unknown;
  /** Binding details a test checks per destination (content type, attributes, DetailType …). */
  meta: Record<string, unknown>;
}

/**
 * One destination's local peer, as the conformance suite drives it. Every harness talks to a real
 * SDK over loopback; faults are the peer's own (or, for fauxqs, a loopback fault proxy's).
 */
export interface DestinationHarness {
  readonly type: DestinationType;
  /** Attributes the vendor's SDK writes into every CloudEvent it sends (Event Grid: `datacontenttype`). */
  readonly cloudEventAttributesAddedBySdk?: Readonly<Record<string, string>>;
  /** The vendor's documented entries per request (not the adapter's own idea of it). */
  readonly vendorMaxBatchEntries: number;
  start(): Promise<void>;
  stop(): Promise<void>;
  envOptions(): DestinationEnvironmentOptions;
  /** A working destination, fresh per test (its own queue/topic/entity), for this subscription. */
  freshDestination(context: EncodeContext): Destination;
  /** Everything delivered to the destination last returned by `freshDestination`, once `count` arrived. */
  arrivals(count: number): Promise<Arrival[]>;
  /** Request sizes the destination accepted for the current destination, where observable. */
  acceptedBatchSizes(): readonly number[] | undefined;
  injectFault(fault: PeerFault, times?: number): void;
  clearFaults(): void;
  /**
   * A destination whose entity does not exist: the current one deleted where the peer can delete
   * it, otherwise one naming a missing entity (a real "unknown entity", not an injected fault).
   */
  unknownEntity(destination: Destination): Destination;
  /**
   * The same destination where nothing listens (a closed loopback port): the environment to build
   * a pool with, and the destination to send to.
   */
  unreachable(destination: Destination, closedPort: number): { destination: Destination; env: DestinationEnvironmentOptions };
  /** The current destination with credentials the peer refuses, where the peer checks them. */
  withBadCredentials?(destination: Destination): Destination;
  /** Per-entry results: the next request fails the entries at these positions with a temporary error. */
  failEntries?(indices: readonly number[]): void;
  /** Entry counts of the requests that reached the peer, for partial-batch assertions. */
  receivedBatchSizes?(): readonly number[];
  /** A hand-made native message the destination rejects as invalid, for payload classification. */
  invalidNativeMessage?(): unknown;
}
