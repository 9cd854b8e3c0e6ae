import type { Destination } from '@herald/model';
import type { DestinationAdapter } from '../destinations/port.js';

/**
 * Where the sender gets the adapter for a subscription's destination. `DestinationPool` (one
 * adapter, hence one SDK client, per destination configuration) is the production implementation;
 * the engine never closes what it gets here — the owner of the pool does.
 */
export interface DestinationAdapterSource {
  get(destination: Destination): DestinationAdapter;
}
