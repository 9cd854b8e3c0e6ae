import type { BaseResource } from './references.js';

/** §2.4 destination kinds, as the spec names them. */
export type DestinationType = 'SQS' | 'SNS' | 'EventBridge' | 'ProviderBServiceBus' | 'EventGrid' | 'ProviderCPubSub';

export const DESTINATION_TYPES: readonly DestinationType[] = ['SQS', 'SNS', 'EventBridge', 'ProviderBServiceBus', 'EventGrid', 'ProviderCPubSub'];

/**
 * How Herald authenticates to an SQS queue or SNS topic (reference type AwsAuthenticationMode; the
 * spec's §2.4 shows only the keys, which are the `Credentials` mode and stay the default):
 * - `Credentials`: the destination's own `accessKey` and `accessSecret`;
 * - `IAM`: Herald's own AWS identity, from the AWS SDK's default credential provider chain (the
 *   queue's or topic's policy grants that identity the right to send or publish). No keys.
 */
export type AwsAuthenticationMode = 'Credentials' | 'IAM';

export const AWS_AUTHENTICATION_MODES: readonly AwsAuthenticationMode[] = ['Credentials', 'IAM'];

/** Keys of the destination's own. Documents stored before the field existed have no `authenticationMode`. */
export interface AwsKeyAuthentication {
  accessKey: string;
  accessSecret: string;
  authenticationMode?: 'Credentials';
}

/** Herald's own AWS credentials; the destination holds no keys. */
export interface AwsIamAuthentication {
  accessKey?: never;
  accessSecret?: never;
  authenticationMode: 'IAM';
}

export type AwsAuthentication = AwsKeyAuthentication | AwsIamAuthentication;

export type SqsDestination = {
  type: 'SQS';
  queueUrl: string;
  region: string;
} & AwsAuthentication;

export type SnsDestination = {
  type: 'SNS';
  topicArn: string;
} & AwsAuthentication;

/** Whether an SQS or SNS destination sends with Herald's own AWS identity (no keys of its own). */
export function usesIamAuthentication(destination: SqsDestination | SnsDestination): destination is (SqsDestination | SnsDestination) & AwsIamAuthentication {
  return destination.authenticationMode === 'IAM';
}

export interface EventBridgeDestination {
  type: 'EventBridge';
  region: string;
  accountId: string;
  /**
   * Answers only: the partner event source Herald puts the subscription's events on (the reference
   * type's required `source`). Derived from the subscription, never stored; ignored on input.
   */
  source?: string;
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

export type Destination = SqsDestination | SnsDestination | EventBridgeDestination | ServiceBusDestination | EventGridDestination | PubSubDestination;

export type Format = { type: 'Platform' } | { type: 'CloudEvents'; cloudEventsVersion: '1.0' };

export interface MessageSubscription {
  resourceTypeId: string;
  types?: string[];
}

export interface ChangeSubscription {
  resourceTypeId: string;
}

/** Reference type EventSubscription (beta): events of a resource type; empty or absent `types` = all. */
export interface EventSubscription {
  resourceTypeId: string;
  types?: string[];
}

export type SubscriptionHealthStatus = 'Healthy' | 'ConfigurationError' | 'ConfigurationErrorDeliveryStopped' | 'TemporaryError';

export interface Subscription extends BaseResource {
  destination: Destination;
  messages: MessageSubscription[];
  changes: ChangeSubscription[];
  /** Always answered (`[]` by default), as the reference's Subscription type requires it. */
  events: EventSubscription[];
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
