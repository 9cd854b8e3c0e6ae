import type { DeliveryPayload, MessageDeliveryPayload } from '@herald/model';
import type {
  AnyDelivery,
  AnyDeliveryPayload,
  ChangeDelivery,
  CloudEventAttributes,
  DeliveryEnvelope,
  DeliveryOrigin,
  DeliverySource,
  EventDelivery,
  EventDeliveryPayload,
  MessageDelivery,
} from '../delivery.js';
import { hasBinaryCloudEventAttributes, readAttributeBinaryCloudEvent, readHttpBinaryCloudEvent, readStructuredCloudEvent } from './cloud-event.js';
import { base64ToText, bytesToText, decodeJsonBody, isJsonObject, mediaTypeOf, parseJsonText } from './json-body.js';
import { invalid, isInvalid, type Invalid, type ParseError } from './parse-error.js';
import { plainConstructor } from './plain-constructor.js';
import { validatePlatformPayload } from './platform-payload.js';
import type { HttpHeaders, RawDelivery, SingleRawDelivery } from './raw-delivery.js';

export type SingleParseResult = { readonly kind: 'delivery'; readonly delivery: AnyDelivery } | { readonly kind: 'error'; readonly error: ParseError };

/** A CloudEvents batch: each event parsed on its own, so one bad event does not hide the others. */
export interface BatchParseResult {
  readonly kind: 'batch';
  readonly items: readonly SingleParseResult[];
}

export type ParseResult = SingleParseResult | BatchParseResult;

/** Where the parser is: which input, which envelope it unwrapped, what the transport said. */
interface Frame {
  readonly source: DeliverySource;
  readonly envelope: DeliveryEnvelope;
  readonly sentAt: number | undefined;
  readonly transportMessageId: string | undefined;
  /** The transport's delivery count, when an envelope carries it (Pub/Sub push). */
  readonly deliveryAttempt?: number;
}

type Parsed = AnyDelivery | Invalid;

const PUBSUB_CE_PREFIXES = ['ce-'];
// CloudEvents AMQP binding §3.1.3: `cloudEvents:` (and `cloudEvents_` for JMS-friendly brokers).
const AMQP_CE_PREFIXES = ['cloudEvents:', 'cloudEvents_'];

/*
 * Origins and deliveries are made by constructors, not object literals, yet are plain objects with
 * the keys in this order (see plain-constructor.ts).
 */

type ChangePayload = Exclude<DeliveryPayload, { notificationType: 'Message' }>;

const Origin = plainConstructor<
  DeliveryOrigin,
  [
    DeliverySource,
    DeliveryEnvelope,
    'Platform' | 'CloudEvents',
    'structured' | 'binary' | undefined,
    CloudEventAttributes | undefined,
    string | undefined,
    number | undefined,
    number | undefined,
  ]
>(function (source, envelope, format, cloudEventsMode, cloudEvent, transportMessageId, sentAt, deliveryAttempt) {
  this.source = source;
  this.envelope = envelope;
  this.format = format;
  this.cloudEventsMode = cloudEventsMode;
  this.cloudEvent = cloudEvent;
  this.transportMessageId = transportMessageId;
  this.sentAt = sentAt;
  // Always present (often undefined): one object shape for every origin on the hot path.
  this.deliveryAttempt = deliveryAttempt;
});

const ParsedMessage = plainConstructor<MessageDelivery, [MessageDeliveryPayload, DeliveryOrigin]>(function (payload, origin) {
  this.notificationType = 'Message';
  this.payload = payload;
  // Always a key (often undefined), as in the object literals of earlier versions.
  this.payloadNotIncluded = payload.payloadNotIncluded;
  this.payloadFetched = false;
  this.origin = origin;
});

const ParsedChange = plainConstructor<ChangeDelivery, [ChangePayload, DeliveryOrigin]>(function (payload, origin) {
  this.notificationType = payload.notificationType;
  this.payload = payload;
  this.origin = origin;
});

const ParsedEvent = plainConstructor<EventDelivery, [EventDeliveryPayload, DeliveryOrigin]>(function (payload, origin) {
  this.notificationType = 'Event';
  this.payload = payload;
  this.origin = origin;
});

function originOf(frame: Frame, attributes: CloudEventAttributes | undefined, mode: 'structured' | 'binary' | undefined): DeliveryOrigin {
  const format = attributes === undefined ? 'Platform' : 'CloudEvents';
  return new Origin(frame.source, frame.envelope, format, mode, attributes, frame.transportMessageId, frame.sentAt, frame.deliveryAttempt);
}

function toDelivery(payload: AnyDeliveryPayload, origin: DeliveryOrigin): AnyDelivery {
  if (payload.notificationType === 'Message') return new ParsedMessage(payload, origin);
  if (payload.notificationType === 'Event') return new ParsedEvent(payload, origin);
  return new ParsedChange(payload, origin);
}

function fromCloudEvent(result: ReturnType<typeof readStructuredCloudEvent>, frame: Frame, mode: 'structured' | 'binary'): Parsed {
  if (isInvalid(result)) return result;
  return toDelivery(result.payload, originOf(frame, result.attributes, mode));
}

/** A Platform payload or a structured CloudEvent, with no envelope around it. */
function readDocument(value: unknown, path: string, frame: Frame): Parsed {
  if (!isJsonObject(value)) return invalid('unrecognized-shape', `${path} must be a JSON object`, path);
  if (value.specversion !== undefined) return fromCloudEvent(readStructuredCloudEvent(value, path), frame, 'structured');
  if (value.notificationType !== undefined) {
    const payload = validatePlatformPayload(value, path);
    return isInvalid(payload) ? payload : toDelivery(payload, originOf(frame, undefined, undefined));
  }
  return invalid('unrecognized-shape', `${path} is neither a Platform payload nor a CloudEvent`, path);
}

function timestampOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const epochMs = Date.parse(value);
  return Number.isNaN(epochMs) ? undefined : epochMs;
}

/** SNS → SQS without raw message delivery: the payload is the JSON text in `Message`. */
function readSnsEnvelope(envelope: Record<string, unknown>, path: string, frame: Frame): Parsed {
  if (envelope.Type !== 'Notification') {
    // SubscriptionConfirmation / UnsubscribeConfirmation reach a queue only by misconfiguration.
    return invalid('invalid-envelope', `SNS ${JSON.stringify(envelope.Type)} is not a notification`, `${path}.Type`);
  }
  if (typeof envelope.Message !== 'string') return invalid('invalid-envelope', `${path}.Message must be a string`, `${path}.Message`);
  const inner = parseJsonText(envelope.Message, `${path}.Message`);
  if (isInvalid(inner)) return inner;
  const snsFrame: Frame = {
    source: frame.source,
    envelope: 'sns',
    sentAt: timestampOf(envelope.Timestamp) ?? frame.sentAt,
    transportMessageId: typeof envelope.MessageId === 'string' ? envelope.MessageId : frame.transportMessageId,
  };
  return readDocument(inner, `${path}.Message`, snsFrame);
}

/** EventBridge → SQS: the payload (Platform or structured CloudEvent) is the object in `detail`. */
function readEventBridgeEnvelope(envelope: Record<string, unknown>, path: string, frame: Frame): Parsed {
  if (typeof envelope['detail-type'] !== 'string') {
    return invalid('invalid-envelope', `${path}.detail-type must be a string`, `${path}.detail-type`);
  }
  if (typeof envelope.source !== 'string') return invalid('invalid-envelope', `${path}.source must be a string`, `${path}.source`);
  if (!isJsonObject(envelope.detail)) return invalid('invalid-envelope', `${path}.detail must be an object`, `${path}.detail`);
  const eventBridgeFrame: Frame = {
    source: frame.source,
    envelope: 'eventbridge',
    sentAt: timestampOf(envelope.time) ?? frame.sentAt,
    transportMessageId: typeof envelope.id === 'string' ? envelope.id : frame.transportMessageId,
  };
  return readDocument(envelope.detail, `${path}.detail`, eventBridgeFrame);
}

/** Pub/Sub push: `{ message: { data: base64, attributes, messageId, publishTime }, subscription }`. */
function readPubSubPush(envelope: Record<string, unknown>, path: string, frame: Frame): Parsed {
  const message = envelope.message;
  if (!isJsonObject(message)) return invalid('invalid-envelope', `${path}.message must be an object`, `${path}.message`);
  const attributes = message.attributes;
  if (attributes !== undefined && !isJsonObject(attributes)) {
    return invalid('invalid-envelope', `${path}.message.attributes must be an object`, `${path}.message.attributes`);
  }
  if (message.data === undefined || message.data === '') return invalid('empty-body', 'the pushed message has no data', `${path}.message.data`);
  if (typeof message.data !== 'string') return invalid('invalid-envelope', `${path}.message.data must be a base64 string`, `${path}.message.data`);
  const text = base64ToText(message.data, `${path}.message.data`);
  if (isInvalid(text)) return text;
  const pushFrame: Frame = {
    source: frame.source,
    envelope: 'pubsub-push',
    sentAt: timestampOf(message.publishTime) ?? frame.sentAt,
    transportMessageId: typeof message.messageId === 'string' ? message.messageId : frame.transportMessageId,
  };
  // Set when the push subscription has a dead-letter policy: 1, then 1 + the number of nacks.
  const attempt = envelope.deliveryAttempt;
  if (typeof attempt === 'number' && Number.isSafeInteger(attempt) && attempt >= 1) {
    return readPubSubData(text, attributes, `${path}.message.data`, { ...pushFrame, deliveryAttempt: attempt });
  }
  return readPubSubData(text, attributes, `${path}.message.data`, pushFrame);
}

/** Pub/Sub message data: structured content mode (or Platform JSON), or binary mode via `ce-` attributes. */
function readPubSubData(text: string, attributes: Readonly<Record<string, unknown>> | undefined, path: string, frame: Frame): Parsed {
  const data = parseJsonText(text, path);
  if (isInvalid(data)) return data;
  if (attributes !== undefined && hasBinaryCloudEventAttributes(attributes, PUBSUB_CE_PREFIXES)) {
    const contentType = typeof attributes['content-type'] === 'string' ? attributes['content-type'] : undefined;
    return fromCloudEvent(readAttributeBinaryCloudEvent(attributes, PUBSUB_CE_PREFIXES, contentType, data, path), frame, 'binary');
  }
  return readDocument(data, path, frame);
}

/** Any single JSON shape: payload, CloudEvent, SNS / EventBridge / Pub/Sub push envelope. */
function readEnvelopedDocument(value: Record<string, unknown>, path: string, frame: Frame): Parsed {
  if (value.notificationType !== undefined || value.specversion !== undefined) return readDocument(value, path, frame);
  if (value.Type !== undefined && value.TopicArn !== undefined) return readSnsEnvelope(value, path, frame);
  if (value['detail-type'] !== undefined) return readEventBridgeEnvelope(value, path, frame);
  if (value.message !== undefined && value.subscription !== undefined) return readPubSubPush(value, path, frame);
  return invalid('unrecognized-shape', `${path} is not a Platform payload, CloudEvent, SNS, EventBridge or Pub/Sub push envelope`, path);
}

function single(parsed: Parsed, source: DeliverySource): SingleParseResult {
  if (isInvalid(parsed)) {
    const error: ParseError =
      parsed.path === undefined
        ? { reason: parsed.reason, message: parsed.message, source }
        : { reason: parsed.reason, message: parsed.message, path: parsed.path, source };
    return { kind: 'error', error };
  }
  return { kind: 'delivery', delivery: parsed };
}

function batch(events: readonly unknown[], path: string, frame: Frame): BatchParseResult {
  const items: SingleParseResult[] = [];
  for (let index = 0; index < events.length; index++) {
    items.push(single(readDocument(events[index], `${path}[${index}]`, frame), frame.source));
  }
  return { kind: 'batch', items };
}

/** Any shape, including a batch (a JSON array of CloudEvents). */
function readAnyShape(value: unknown, path: string, frame: Frame): ParseResult {
  if (isInvalid(value)) return single(value, frame.source);
  if (Array.isArray(value)) {
    if (value.length === 0) return single(invalid('empty-body', 'an empty batch', path), frame.source);
    return batch(value, path, frame);
  }
  if (!isJsonObject(value)) return single(invalid('unrecognized-shape', `${path} must be a JSON object or array`, path), frame.source);
  return single(readEnvelopedDocument(value, path, frame), frame.source);
}

function headerOf(headers: HttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : (value as string | undefined);
}

function bodyText(body: unknown): string | undefined {
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return bytesToText(body);
  return undefined;
}

function readHttp(input: Extract<RawDelivery, { source: 'http' }>, frame: Frame): ParseResult {
  const { headers, body } = input;
  if (headerOf(headers, 'ce-specversion') !== undefined) {
    // CloudEvents HTTP binding §3.1: binary content mode.
    const text = bodyText(body) ?? (body === undefined ? '' : JSON.stringify(body));
    return single(fromCloudEvent(readHttpBinaryCloudEvent(headers, text, 'body'), frame, 'binary'), frame.source);
  }
  const mediaType = mediaTypeOf(headerOf(headers, 'content-type'));
  const value = decodeJsonBody(body, 'body');
  if (mediaType === 'application/cloudevents-batch+json') {
    if (isInvalid(value)) return single(value, frame.source);
    if (!Array.isArray(value)) return single(invalid('unrecognized-shape', 'a CloudEvents batch must be a JSON array', 'body'), frame.source);
    return readAnyShape(value, 'body', frame);
  }
  if (mediaType === 'application/cloudevents+json') {
    if (isInvalid(value)) return single(value, frame.source);
    if (!isJsonObject(value)) return single(invalid('unrecognized-shape', 'a structured CloudEvent must be a JSON object', 'body'), frame.source);
    return single(fromCloudEvent(readStructuredCloudEvent(value, 'body'), frame, 'structured'), frame.source);
  }
  return readAnyShape(value, 'body', frame);
}

function readServiceBus(input: Extract<RawDelivery, { source: 'service-bus' }>, frame: Frame): SingleParseResult {
  const value = decodeJsonBody(input.body, 'body');
  if (isInvalid(value)) return single(value, frame.source);
  const properties = input.applicationProperties;
  if (properties !== undefined && hasBinaryCloudEventAttributes(properties, AMQP_CE_PREFIXES)) {
    const parsed = readAttributeBinaryCloudEvent(properties, AMQP_CE_PREFIXES, input.contentType, value, 'body');
    return single(fromCloudEvent(parsed, frame, 'binary'), frame.source);
  }
  if (mediaTypeOf(input.contentType) === 'application/cloudevents+json') {
    if (!isJsonObject(value)) return single(invalid('unrecognized-shape', 'a structured CloudEvent must be a JSON object', 'body'), frame.source);
    return single(fromCloudEvent(readStructuredCloudEvent(value, 'body'), frame, 'structured'), frame.source);
  }
  return single(readDocument(value, 'body', frame), frame.source);
}

function readPubSub(input: Extract<RawDelivery, { source: 'pubsub' }>, frame: Frame): SingleParseResult {
  const text = typeof input.data === 'string' ? input.data : bytesToText(input.data);
  return single(readPubSubData(text, input.attributes, 'data', frame), frame.source);
}

/**
 * Turns a delivery as received into a typed `Delivery`, or a `ParseError` value saying why it is
 * not one. Never throws for bad input. Inputs that may carry a CloudEvents batch (`raw`, `http`,
 * `event-grid`) can yield `{ kind: 'batch' }`; the others always yield one result.
 */
export function parseDelivery(input: SingleRawDelivery): SingleParseResult;
export function parseDelivery(input: RawDelivery): ParseResult;
export function parseDelivery(input: RawDelivery): ParseResult {
  const frame: Frame = { source: input.source, envelope: 'none', sentAt: input.enqueuedAt, transportMessageId: input.transportMessageId };
  switch (input.source) {
    case 'raw':
      return readAnyShape(decodeJsonBody(input.body, 'body'), 'body', frame);
    case 'sqs': {
      const value = decodeJsonBody(input.body, 'body');
      if (isInvalid(value)) return single(value, frame.source);
      if (!isJsonObject(value)) return single(invalid('unrecognized-shape', 'an SQS message body must be a JSON object', 'body'), frame.source);
      return single(readEnvelopedDocument(value, 'body', frame), frame.source);
    }
    case 'http':
      return readHttp(input, frame);
    case 'event-grid': {
      const value = decodeJsonBody(input.body, 'body');
      if (isInvalid(value)) return single(value, frame.source);
      // Event Grid pushes CloudEvents in batches; a lone event is a batch of one.
      return isJsonObject(value) ? batch([value], 'body', frame) : readAnyShape(value, 'body', frame);
    }
    case 'service-bus':
      return readServiceBus(input, frame);
    case 'pubsub':
      return readPubSub(input, frame);
    case 'pubsub-push': {
      const value = decodeJsonBody(input.body, 'body');
      if (isInvalid(value)) return single(value, frame.source);
      if (!isJsonObject(value) || value.message === undefined) {
        return single(invalid('invalid-envelope', 'a Pub/Sub push body is { message, subscription }', 'body'), frame.source);
      }
      return single(readPubSubPush(value, 'body', frame), frame.source);
    }
  }
}
