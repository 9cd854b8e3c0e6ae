import type { DestinationType } from '@herald/model';
import type { DestinationHarness } from '../harness.js';
import { SnsHarness, SqsHarness } from './aws.js';
import { EventBridgeHarness } from './eventbridge.js';
import { EventGridHarness } from './event-grid.js';
import { PubSubHarness } from './pubsub.js';
import { ServiceBusHarness } from './service-bus.js';

/**
 * One harness per destination kind, for the conformance suite: the mapped type makes a destination
 * without a harness a compile error, as the registry does for one without a descriptor.
 */
export const HARNESSES: { readonly [T in DestinationType]: () => DestinationHarness } = {
  SQS: () => new SqsHarness(),
  SNS: () => new SnsHarness(),
  EventBridge: () => new EventBridgeHarness(),
  ProviderBServiceBus: () => new ServiceBusHarness(),
  EventGrid: () => new EventGridHarness(),
  ProviderCPubSub: () => new PubSubHarness(),
};
