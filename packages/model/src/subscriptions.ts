import type { BaseResource } from './references.js';

/** §2.4 destination kinds, as the spec names them. */
export type DestinationType = 'SQS' | 'SNS' | 'EventBridge' | 'ProviderBServiceBus' | 'EventGrid' | 'ProviderCPubSub';

export const DESTINATION_TYPES: readonly DestinationType[] = [
  'SQS',
  'SNS',
  'EventBridge',
  'ProviderBServiceBus',
  'EventGrid',
  'ProviderCPubSub',
];

/**
 * Names the official commercetools SDKs send, accepted on input as aliases of the spec's names. A
 * Map, so a type named like an Object.prototype member (`toString`) is just not an alias.
 */
export const DESTINATION_TYPE_ALIASES: ReadonlyMap<string, DestinationType> = new Map([
  ['AzureServiceBus', 'ProviderBServiceBus'],
  ['GoogleCloudPubSub', 'ProviderCPubSub'],
]);

export interface SqsDestination {
  type: 'SQS';
  queueUrl: string;
  accessKey: string;
  accessSecret: string;
  region: string;
}

export interface SnsDestination {
  type: 'SNS';
  topicArn: string;
  accessKey: string;
  accessSecret: string;
}

export interface EventBridgeDestination {
  type: 'EventBridge';
  region: string;
  accountId: string;
}

export interface ServiceBusDestination {
  type: 'ProviderBServiceBus';
  connectionString: string;
}

export interface EventGridDestination {
  type: 'EventGrid';
  uri: string;
  accessKey: string;
}

export interface PubSubDestination {
  type: 'ProviderCPubSub';
  projectId: string;
  topic: string;
}

export type Destination =
  | SqsDestination
  | SnsDestination
  | EventBridgeDestination
  | ServiceBusDestination
  | EventGridDestination
  | PubSubDestination;

export type Format = { type: 'Platform' } | { type: 'CloudEvents'; cloudEventsVersion: '1.0' };

export interface MessageSubscription {
  resourceTypeId: string;
  types?: string[];
}

export interface ChangeSubscription {
  resourceTypeId: string;
}

export type SubscriptionHealthStatus =
  | 'Healthy'
  | 'ConfigurationError'
  | 'ConfigurationErrorDeliveryStopped'
  | 'TemporaryError';

export interface Subscription extends BaseResource {
  destination: Destination;
  messages: MessageSubscription[];
  changes: ChangeSubscription[];
  format: Format;
  status: SubscriptionHealthStatus;
}

/** §4.2: the HTTP status the public health endpoint answers for each state. */
export const HEALTH_STATUS_CODES: Readonly<Record<SubscriptionHealthStatus, number>> = {
  Healthy: 200,
  ConfigurationError: 400,
  ConfigurationErrorDeliveryStopped: 400,
  TemporaryError: 503,
};
