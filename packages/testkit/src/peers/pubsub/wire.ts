/**
 * The google.pubsub.v1 messages the peer reads and writes, as `@grpc/proto-loader` presents them
 * (camelCase fields, `defaults: true` so absent fields hold their zero value, bytes as Buffer).
 * Only the fields the peer uses are declared.
 */

export interface WireTimestamp {
  readonly seconds: number;
  readonly nanos: number;
}

export interface WirePubsubMessage {
  readonly data: Buffer;
  readonly attributes: Readonly<Record<string, string>>;
  readonly messageId: string;
  readonly publishTime: WireTimestamp | null;
  readonly orderingKey: string;
}

export interface WireTopic {
  readonly name: string;
}

export interface WireSubscription {
  readonly name: string;
  readonly topic: string;
  readonly ackDeadlineSeconds: number;
  readonly enableMessageOrdering: boolean;
  readonly deadLetterPolicy: object | null;
}

export interface PublishRequest {
  readonly topic: string;
  readonly messages: readonly WirePubsubMessage[];
}

export interface PublishResponse {
  readonly messageIds: readonly string[];
}

export interface TopicRequest {
  readonly topic: string;
}

export interface SubscriptionRequest {
  readonly subscription: string;
}

export interface PullRequest {
  readonly subscription: string;
  readonly maxMessages: number;
  readonly returnImmediately: boolean;
}

export interface ReceivedMessage {
  readonly ackId: string;
  readonly message: WirePubsubMessage;
  /** Only set when the subscription has a dead-letter policy, as the service does. */
  readonly deliveryAttempt: number;
}

export interface PullResponse {
  readonly receivedMessages: readonly ReceivedMessage[];
}

export interface AcknowledgeRequest {
  readonly subscription: string;
  readonly ackIds: readonly string[];
}

export interface ModifyAckDeadlineRequest {
  readonly subscription: string;
  readonly ackIds: readonly string[];
  readonly ackDeadlineSeconds: number;
}

export interface StreamingPullRequest {
  /** Set on the first request of a stream only. */
  readonly subscription: string;
  readonly ackIds: readonly string[];
  /** Parallel to `modifyDeadlineAckIds`. */
  readonly modifyDeadlineSeconds: readonly number[];
  readonly modifyDeadlineAckIds: readonly string[];
  /** 0 = unchanged. */
  readonly streamAckDeadlineSeconds: number;
  readonly clientId: string;
  /** Flow control from the client; 0 = no limit. */
  readonly maxOutstandingMessages: number;
  readonly maxOutstandingBytes: number;
}

export interface StreamingPullResponse {
  readonly receivedMessages: readonly ReceivedMessage[];
  readonly subscriptionProperties: {
    readonly exactlyOnceDeliveryEnabled: boolean;
    readonly messageOrderingEnabled: boolean;
  };
}

/** google.protobuf.Empty */
export type Empty = Record<string, never>;
