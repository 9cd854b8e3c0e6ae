import type { DestinationType } from '@herald/model';
import type { DestinationDescriptor } from './descriptor.js';
import { EVENT_GRID_DESTINATION } from './event-grid/descriptor.js';
import { EVENTBRIDGE_DESTINATION } from './eventbridge/descriptor.js';
import { PUBSUB_DESTINATION } from './pubsub/descriptor.js';
import { SERVICE_BUS_DESTINATION } from './service-bus/descriptor.js';
import { SNS_DESTINATION } from './sns/descriptor.js';
import { SQS_DESTINATION } from './sqs/descriptor.js';

/** One descriptor per destination kind; the mapped type makes a missing kind a compile error. */
export type DestinationRegistry = { readonly [T in DestinationType]: DestinationDescriptor<T> };

/**
 * Every destination kind of §2.4, in the spec's order (error messages list them so). The adapter
 * modules import no SDK at load time: each loads its SDK with `import()` on its first request.
 */
export const DESTINATIONS = Object.freeze({
  SQS: SQS_DESTINATION,
  SNS: SNS_DESTINATION,
  EventBridge: EVENTBRIDGE_DESTINATION,
  ProviderBServiceBus: SERVICE_BUS_DESTINATION,
  EventGrid: EVENT_GRID_DESTINATION,
  ProviderCPubSub: PUBSUB_DESTINATION,
}) satisfies DestinationRegistry;

/** The options of `DestinationEnvironment.endpoints`, as the descriptors declare them. */
export type EndpointOption = NonNullable<(typeof DESTINATIONS)[DestinationType]['endpointOverride']>['option'];

/**
 * The descriptor of a kind, to be used with destinations of that kind only. The registry's union of
 * descriptors cannot take the union of destinations; indexing by a destination's own type pairs
 * them, which this states once.
 */
export function descriptorOf(type: DestinationType, registry: DestinationRegistry = DESTINATIONS): DestinationDescriptor {
  return registry[type] as DestinationDescriptor;
}

/** Every descriptor, in the registry's order. */
export function allDestinations(registry: DestinationRegistry = DESTINATIONS): readonly DestinationDescriptor[] {
  return Object.values(registry) as DestinationDescriptor[];
}

/** The spec's name for a type as sent: itself, or the kind whose aliases include it. */
export function destinationTypeNamed(name: string, registry: DestinationRegistry = DESTINATIONS): DestinationType | undefined {
  return allDestinations(registry).find((descriptor) => descriptor.type === name || descriptor.aliases.includes(name))?.type;
}
