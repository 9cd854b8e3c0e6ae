import type { Destination, DestinationType } from '@herald/model';
import type { DestinationEnvironment } from './environment.js';
import { createEventBridgeAdapter } from './eventbridge/adapter.js';
import { createEventGridAdapter } from './event-grid/adapter.js';
import type { DestinationAdapter } from './port.js';
import { createPubSubAdapter } from './pubsub/adapter.js';
import { createServiceBusAdapter } from './service-bus/adapter.js';
import { createSnsAdapter } from './sns/adapter.js';
import { createSqsAdapter } from './sqs/adapter.js';

/** Builds an adapter for one destination configuration. Cheap: SDKs load on the first request. */
export type DestinationFactory<D extends Destination = Destination> = (
  destination: D,
  env: DestinationEnvironment,
) => DestinationAdapter;

export type DestinationOfType<K extends DestinationType> = Extract<Destination, { type: K }>;

/**
 * One factory per destination kind of §2.4. The mapped type makes a missing kind a compile error;
 * the adapter modules import no SDK at load time (each loads its SDK with `import()`).
 */
export const DESTINATION_FACTORIES = {
  SQS: createSqsAdapter,
  SNS: createSnsAdapter,
  EventBridge: createEventBridgeAdapter,
  ProviderBServiceBus: createServiceBusAdapter,
  EventGrid: createEventGridAdapter,
  ProviderCPubSub: createPubSubAdapter,
} satisfies { [K in DestinationType]: DestinationFactory<DestinationOfType<K>> };

export type DestinationFactories = { readonly [K in DestinationType]: DestinationFactory<DestinationOfType<K>> };

export function createDestinationAdapter(
  destination: Destination,
  env: DestinationEnvironment,
  factories: DestinationFactories = DESTINATION_FACTORIES,
): DestinationAdapter {
  // The union of factories cannot be called with the union of destinations; indexing by the
  // destination's own type pairs them correctly.
  const factory = factories[destination.type] as DestinationFactory;
  return factory(destination, env);
}
