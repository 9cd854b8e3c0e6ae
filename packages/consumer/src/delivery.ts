import type {
  DeliveryPayload,
  MessageDeliveryPayload,
  PayloadNotIncluded,
  ResourceCreatedDeliveryPayload,
  ResourceDeletedDeliveryPayload,
  ResourceUpdatedDeliveryPayload,
} from '@herald/model';

/** Which kind of input a delivery was handed to the parser as (the `source` of a `RawDelivery`). */
export type DeliverySource = 'raw' | 'sqs' | 'http' | 'event-grid' | 'service-bus' | 'pubsub' | 'pubsub-push';

/** A wrapper found around the payload inside the input. */
export type DeliveryEnvelope = 'none' | 'sns' | 'eventbridge' | 'pubsub-push';

/** CloudEvents context attributes of a delivery in the CloudEvents format (§6.2). */
export interface CloudEventAttributes {
  readonly specversion: '1.0';
  readonly id: string;
  readonly type: string;
  readonly source: string;
  readonly subject?: string;
  readonly time?: string;
  readonly datacontenttype?: string;
  readonly dataschema?: string;
  readonly sequence?: string;
  readonly sequencetype?: string;
  readonly dataref?: string;
  /**
   * Extension attributes (CloudEvents 1.0 §3.3: any other context attribute, for example
   * `traceparent` of the distributed-tracing extension or `partitionkey`), as sent. Present only
   * when the event has some.
   */
  readonly extensions?: Readonly<Record<string, CloudEventExtensionValue>>;
}

/** The JSON types a CloudEvents extension attribute may take (CloudEvents 1.0 §3.1.1: String, Boolean, Integer …). */
export type CloudEventExtensionValue = string | number | boolean;

/** How a delivery reached the consumer: useful for logs and metrics, never needed for handling. */
export interface DeliveryOrigin {
  readonly source: DeliverySource;
  readonly envelope: DeliveryEnvelope;
  readonly format: 'Platform' | 'CloudEvents';
  /** CloudEvents content mode; absent for the Platform format. */
  readonly cloudEventsMode?: 'structured' | 'binary';
  readonly cloudEvent?: CloudEventAttributes;
  /** The transport's own message id (SQS MessageId, Pub/Sub messageId …) when known. */
  readonly transportMessageId?: string;
  /** When the transport accepted the delivery (epoch ms), if it says so; feeds the queue-wait metric. */
  readonly sentAt?: number;
  /** The delivery count an envelope carried (Pub/Sub push `deliveryAttempt`), this delivery included. */
  readonly deliveryAttempt?: number;
}

export interface MessageDelivery {
  readonly notificationType: 'Message';
  readonly payload: MessageDeliveryPayload;
  /**
   * §6.2: set when the message was too large for the destination and arrived without its
   * type-specific fields. With a `fetchMessage` fetcher the consumer loads them before the handler
   * runs (then `payloadFetched` is true and `payload` is complete); the field stays for visibility.
   */
  readonly payloadNotIncluded?: PayloadNotIncluded;
  readonly payloadFetched: boolean;
  readonly origin: DeliveryOrigin;
}

export interface ResourceCreatedDelivery {
  readonly notificationType: 'ResourceCreated';
  readonly payload: ResourceCreatedDeliveryPayload;
  readonly origin: DeliveryOrigin;
}

export interface ResourceUpdatedDelivery {
  readonly notificationType: 'ResourceUpdated';
  readonly payload: ResourceUpdatedDeliveryPayload;
  readonly origin: DeliveryOrigin;
}

export interface ResourceDeletedDelivery {
  readonly notificationType: 'ResourceDeleted';
  readonly payload: ResourceDeletedDeliveryPayload;
  readonly origin: DeliveryOrigin;
}

export type ChangeDelivery = ResourceCreatedDelivery | ResourceUpdatedDelivery | ResourceDeletedDelivery;

/**
 * What the platform's event subscriptions deliver (reference: types/subscription/
 * EventDeliveryPayload.raml, types/event/Event.raml; §6.2 does not list them). Unlike messages and
 * changes it has no projectKey, resource, sequence number or version: it is deduplicated by `id`
 * and never ordered.
 */
export interface EventDeliveryPayload {
  readonly notificationType: 'Event';
  /** Unique identifier of the event: the deduplication key. */
  readonly id: string;
  /** The EventType, for example `ImportContainerCreated` or `CheckoutPaymentCharged`. */
  readonly type: string;
  /** EventSubscriptionResourceTypeId: `checkout`, `import-api` … */
  readonly resourceType: string;
  /** The event's details; their shape depends on `type`. */
  readonly data: Readonly<Record<string, unknown>>;
  readonly createdAt: string;
}

export interface EventDelivery {
  readonly notificationType: 'Event';
  readonly payload: EventDeliveryPayload;
  readonly origin: DeliveryOrigin;
}

/** Every payload a subscription delivers: a message, a change notification or an event. */
export type AnyDeliveryPayload = DeliveryPayload | EventDeliveryPayload;

/** A typed delivery about a resource (what `handler` gets), discriminated by `notificationType`. */
export type Delivery = MessageDelivery | ChangeDelivery;

/** Anything a subscription delivers: a resource's delivery, or an event (what `onEvent` gets). */
export type AnyDelivery = Delivery | EventDelivery;

/**
 * Is this the test notification the platform puts into the destination when a subscription is
 * created or its destination changed (§4.2: `ResourceCreated` for resourceTypeId `subscription`)?
 * It is usually the first delivery a new queue receives, and carries no business event.
 */
export function isSubscriptionTestNotification(delivery: Delivery): boolean {
  return delivery.notificationType === 'ResourceCreated' && delivery.payload.resource.typeId === 'subscription';
}

/** The message type of a message delivery, whether or not its payload was included. */
export function messageTypeOf(delivery: MessageDelivery): string {
  return delivery.payload.type ?? delivery.payloadNotIncluded?.payloadType ?? 'Unknown';
}
