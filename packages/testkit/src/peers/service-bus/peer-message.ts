/** What the peer reports about messages, in the vocabulary of the Service Bus SDK. No AMQP types. */

export type ServiceBusMessageId = string | number | Buffer;

/** A message as stored by the peer, decoded. */
export interface ServiceBusPeerMessage {
  /** Parsed JSON when the payload is JSON (as the SDK parses it), otherwise the bytes or AMQP value. */
  readonly body: unknown;
  /** The payload bytes when the body is an AMQP data section (the SDK's default). */
  readonly rawBody: Buffer | undefined;
  readonly contentType: string | undefined;
  readonly messageId: ServiceBusMessageId | undefined;
  readonly correlationId: ServiceBusMessageId | undefined;
  readonly subject: string | undefined;
  readonly to: string | undefined;
  readonly replyTo: string | undefined;
  readonly sessionId: string | undefined;
  readonly timeToLiveMs: number | undefined;
  readonly applicationProperties: Readonly<Record<string, unknown>>;
  /** Assigned by the entity, from 1. */
  readonly sequenceNumber: number;
  readonly enqueuedAt: Date;
  /** Failed delivery attempts so far (AMQP header `delivery-count`): 0 until abandoned or a lock expired. */
  readonly deliveryCount: number;
  /** Encoded AMQP size, as compared with the maximum message size. */
  readonly sizeInBytes: number;
  /** True when it arrived inside a batch transfer (`sendMessages([...])` or a `ServiceBusMessageBatch`). */
  readonly arrivedInBatch: boolean;
  readonly state: 'available' | 'locked' | 'deferred' | 'removed';
}

export type ServiceBusSettlementOutcome =
  /** peekLock `completeMessage` */
  | 'completed'
  /** peekLock `abandonMessage`: available again, delivery count + 1 */
  | 'abandoned'
  /** `deadLetterMessage`, or too many delivery attempts */
  | 'dead-lettered'
  /** `deferMessage`: kept aside, never delivered again by this peer */
  | 'deferred'
  /** delivered in receiveAndDelete mode */
  | 'received-and-deleted'
  /** the lock expired before any settlement: available again, delivery count + 1 */
  | 'lock-expired';

export interface ServiceBusSettlement {
  readonly outcome: ServiceBusSettlementOutcome;
  readonly sequenceNumber: number;
  readonly messageId: ServiceBusMessageId | undefined;
  /** Delivery count after the settlement. */
  readonly deliveryCount: number;
  readonly at: Date;
  readonly deadLetterReason?: string;
  readonly deadLetterErrorDescription?: string;
}
