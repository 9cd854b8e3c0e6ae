export { createConsumer } from './consumer/create-consumer.js';
export type {
  Consumer,
  ConsumerOptions,
  DeliveryContext,
  DeliveryHandler,
  DeliveryOutcome,
  EventHandler,
  ItemOutcome,
  MessageFilter,
  OrderingOptions,
  ParseErrorDecision,
  ParseErrorPolicy,
  ProcessOutcome,
  RetryOptions,
  Settlement,
} from './consumer/types.js';

export { parseDelivery } from './parse/parse-delivery.js';
export type { BatchParseResult, ParseResult, SingleParseResult } from './parse/parse-delivery.js';
export type { ParseError, ParseErrorReason } from './parse/parse-error.js';
export type { BatchCapableRawDelivery, HttpHeaders, RawBody, RawDelivery, SingleRawDelivery } from './parse/raw-delivery.js';
export { createMessagesApiFetcher, loadNotIncludedPayload, MessagesApiError, withFetchedPayload } from './parse/messages-api.js';
export type { MessageFetcher, MessageLocator, MessagesApiFetcherOptions } from './parse/messages-api.js';

export type {
  AnyDelivery,
  AnyDeliveryPayload,
  ChangeDelivery,
  CloudEventAttributes,
  CloudEventExtensionValue,
  Delivery,
  DeliveryEnvelope,
  DeliveryOrigin,
  DeliverySource,
  EventDelivery,
  EventDeliveryPayload,
  MessageDelivery,
  ResourceCreatedDelivery,
  ResourceDeletedDelivery,
  ResourceUpdatedDelivery,
} from './delivery.js';
export { isSubscriptionTestNotification, messageTypeOf } from './delivery.js';

export { MemoryDedupStore } from './dedup/memory-dedup-store.js';
export { RedisDedupStore, type RedisDedupStoreOptions } from './dedup/redis-dedup-store.js';
export type {
  ClaimRequest,
  ClaimResult,
  CompleteRequest,
  DedupStore,
  DedupStoreOptions,
  LeaseRef,
  PositionLane,
  PositionRef,
  StreamPositions,
} from './dedup/dedup-store.js';

export type { GapNotice } from './ordering/gap-notice.js';
export type { LateNotice } from './ordering/late-notice.js';
export { CONSUMER_METRIC_NAMES, type ConsumerMetricName, type DeferReason } from './metrics/consumer-metrics.js';
export { systemClock, type Clock, type TimerHandle } from './clock.js';
export { createJsonLogger, silentLogger, type JsonLoggerOptions, type Logger, type LogLevel } from './logger.js';

export { SqsPoller, type SqsPollerOptions } from './sources/sqs-poller.js';
export { ServiceBusSource, type ServiceBusEntity, type ServiceBusSourceOptions } from './sources/service-bus-source.js';
export { PubSubSource, type PubSubSourceOptions } from './sources/pubsub-source.js';
export {
  createHttpDeliveryHandler,
  DEFAULT_HTTP_BODY_LIMIT_BYTES,
  type HttpDeliveryOptions,
  type HttpDeliveryReply,
  type HttpDeliveryRequest,
} from './sources/http/http-delivery.js';
export { createNodeHttpHandler, type NodeHttpHandlerOptions } from './sources/http/node-http-handler.js';
export { heraldConsumerPlugin, type HeraldConsumerPluginOptions } from './sources/http/fastify-plugin.js';
export type { PushAuthenticationOptions } from './sources/http/verify/push-authentication.js';
export { SNS_HOST_PATTERN } from './sources/http/verify/sns-certificates.js';
export type { SnsVerificationOptions } from './sources/http/verify/sns-verifier.js';
export { httpsGetter, type HttpsGet, type HttpsGetResponse, type HttpsGetterOptions } from './sources/http/verify/https-get.js';
export type { EventGridEntraOptions, EventGridSharedKeyOptions, EventGridVerificationOptions } from './sources/http/verify/event-grid-verifier.js';
export { GOOGLE_ISSUERS, GOOGLE_JWKS_URL, type PubSubPushVerificationOptions } from './sources/http/verify/pubsub-push-verifier.js';
