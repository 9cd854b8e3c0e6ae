/** A body as a transport hands it over: text, bytes, or JSON its SDK already decoded. */
export type RawBody = string | Uint8Array | object;

/** HTTP request headers (node:http style: lower-case names). */
export type HttpHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

/** What every input may add about its transport; all optional. */
interface RawDeliveryMeta {
  /** When the transport accepted it (epoch ms): SQS SentTimestamp, Service Bus enqueuedTimeUtc … */
  readonly enqueuedAt?: number;
  /** How many times the transport has delivered it, this time included, when it counts. */
  readonly deliveryAttempt?: number;
  readonly transportMessageId?: string;
}

/**
 * A delivery as received, tagged with where it came from. Each source accepts every shape that
 * can legitimately arrive through it (the parser detects which):
 *
 * | source        | shapes                                                                            |
 * |---------------|-----------------------------------------------------------------------------------|
 * | `raw`         | anything below except binary-mode CloudEvents                                     |
 * | `sqs`         | Platform JSON, structured CloudEvent, SNS envelope, EventBridge envelope           |
 * | `http`        | binary (`ce-*` headers) / structured / batch CloudEvents, Pub/Sub push, Platform    |
 * | `event-grid`  | a CloudEvents batch (JSON array) or a single structured CloudEvent                 |
 * | `service-bus` | Platform or CloudEvents structured body, or binary mode via `cloudEvents:` properties|
 * | `pubsub`      | data = Platform or structured CloudEvent JSON, or binary mode via `ce-` attributes  |
 * | `pubsub-push` | `{ message: { data, attributes, messageId }, subscription }`                       |
 */
export type RawDelivery =
  | (RawDeliveryMeta & { readonly source: 'raw'; readonly body: RawBody })
  | (RawDeliveryMeta & { readonly source: 'sqs'; readonly body: RawBody })
  | (RawDeliveryMeta & { readonly source: 'http'; readonly headers: HttpHeaders; readonly body: RawBody | undefined })
  | (RawDeliveryMeta & { readonly source: 'event-grid'; readonly body: RawBody })
  | (RawDeliveryMeta & {
      readonly source: 'service-bus';
      readonly body: unknown;
      readonly contentType?: string;
      readonly applicationProperties?: Readonly<Record<string, unknown>>;
    })
  | (RawDeliveryMeta & {
      readonly source: 'pubsub';
      readonly data: Uint8Array | string;
      readonly attributes?: Readonly<Record<string, string>>;
    })
  | (RawDeliveryMeta & { readonly source: 'pubsub-push'; readonly body: RawBody });

/** Inputs that can carry several deliveries (a CloudEvents batch). */
export type BatchCapableRawDelivery = Extract<RawDelivery, { source: 'raw' | 'http' | 'event-grid' }>;

/** Inputs that always carry exactly one delivery. */
export type SingleRawDelivery = Exclude<RawDelivery, BatchCapableRawDelivery>;
