/**
 * A local Azure Service Bus namespace for tests: AMQP 1.0 (rhea) with SASL ANONYMOUS, CBS put-token
 * with real SAS verification, queues, topics with subscriptions, dead-letter queues, peek-lock with
 * lock expiry and renewal, and fault injection.
 *
 * Not supported: message sessions (session receivers are refused with amqp:not-implemented),
 * subscription rules (every subscription receives every message), scheduled messages, time-to-live
 * expiry, duplicate detection, transactions, peek and deferred-message retrieval (other management
 * operations answer 501 amqp:not-implemented), AAD/JWT tokens (SAS only), TLS and WebSockets.
 * Faults do not apply to the delivery of messages to receivers; use `dropConnections()` there.
 */
export { startServiceBusPeer, type ServiceBusPeer, type ServiceBusPeerOptions } from './peer.js';
export type { ServiceBusMessageInput, ServiceBusPropertyValue } from './message-codec.js';
export type { ServiceBusMessageId, ServiceBusPeerMessage, ServiceBusSettlement, ServiceBusSettlementOutcome } from './peer-message.js';
