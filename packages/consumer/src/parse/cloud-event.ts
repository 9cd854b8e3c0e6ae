import { HTTP } from 'cloudevents';
import type { AnyDeliveryPayload, CloudEventAttributes, CloudEventExtensionValue } from '../delivery.js';
import { base64ToText, isJsonContentType, isJsonObject, parseJsonText } from './json-body.js';
import { invalid, isInvalid, type Invalid } from './parse-error.js';
import { plainConstructor } from './plain-constructor.js';
import { validatePlatformPayload } from './platform-payload.js';
import type { HttpHeaders } from './raw-delivery.js';

/** A CloudEvent whose data is a valid Platform payload. */
export interface ValidCloudEvent {
  readonly attributes: CloudEventAttributes;
  readonly payload: AnyDeliveryPayload;
}

// CloudEvents 1.0 §3.1.1 / RFC 3339 §5.6 date-time.
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

const REQUIRED_ATTRIBUTES = ['id', 'source', 'type'] as const;
const OPTIONAL_STRING_ATTRIBUTES = ['subject', 'dataschema', 'sequence', 'sequencetype', 'dataref'] as const;
/** Everything that is not an extension attribute (CloudEvents 1.0 §3.1, JSON format §3.1 for data / data_base64). */
const NOT_EXTENSIONS = new Set<string>([
  'specversion',
  ...REQUIRED_ATTRIBUTES,
  ...OPTIONAL_STRING_ATTRIBUTES,
  'time',
  'datacontenttype',
  'data',
  'data_base64',
]);

/**
 * The extension attributes of an event (CloudEvents 1.0 §3.3), or undefined when it has none (the
 * usual case, which allocates nothing). Values other than a string, number or boolean are not
 * attribute values (§3.1.1) and are left out.
 */
function extensionsOf(event: Record<string, unknown>): Record<string, CloudEventExtensionValue> | undefined {
  let extensions: Record<string, CloudEventExtensionValue> | undefined;
  for (const name in event) {
    if (NOT_EXTENSIONS.has(name)) continue;
    const value = event[name];
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
    extensions ??= {};
    extensions[name] = value;
  }
  return extensions;
}

function attributeProblem(event: Record<string, unknown>, path: string): Invalid | undefined {
  const specversion = event.specversion;
  if (specversion === undefined) return invalid('missing-attribute', `${path}.specversion is missing`, `${path}.specversion`);
  // §6.2: only CloudEvents 1.0 is produced; 0.x is a different envelope, not just a number.
  if (specversion !== '1.0') {
    return invalid('unsupported-specversion', `${path}.specversion ${JSON.stringify(specversion)} is not supported (only "1.0")`, `${path}.specversion`);
  }
  for (const name of REQUIRED_ATTRIBUTES) {
    const value = event[name];
    if (value === undefined) return invalid('missing-attribute', `${path}.${name} is missing`, `${path}.${name}`);
    // CloudEvents 1.0 §3.1.1: REQUIRED attributes are non-empty strings.
    if (typeof value !== 'string' || value.length === 0) {
      return invalid('invalid-attribute', `${path}.${name} must be a non-empty string`, `${path}.${name}`);
    }
  }
  for (const name of OPTIONAL_STRING_ATTRIBUTES) {
    const value = event[name];
    if (value !== undefined && typeof value !== 'string') {
      return invalid('invalid-attribute', `${path}.${name} must be a string`, `${path}.${name}`);
    }
  }
  const time = event.time;
  if (time !== undefined && (typeof time !== 'string' || !RFC3339.test(time))) {
    return invalid('invalid-attribute', `${path}.time must be an RFC 3339 timestamp`, `${path}.time`);
  }
  const contentType = event.datacontenttype;
  if (contentType !== undefined) {
    if (typeof contentType !== 'string') return invalid('invalid-attribute', `${path}.datacontenttype must be a string`, `${path}.datacontenttype`);
    // A Platform payload is a JSON object; any other media type cannot carry one.
    if (!isJsonContentType(contentType)) {
      return invalid('unsupported-content-type', `${path}.datacontenttype ${JSON.stringify(contentType)} is not JSON`, `${path}.datacontenttype`);
    }
  }
  return undefined;
}

/**
 * The context attributes of a delivery, made by `new` as a plain object (see plain-constructor.ts);
 * optional attributes are keys only when the event has them. `event`'s attributes are checked
 * (`attributeProblem`) before.
 */
const Attributes = plainConstructor<CloudEventAttributes, [Record<string, unknown>]>(function (event) {
  this.specversion = '1.0';
  this.id = event.id as string;
  this.type = event.type as string;
  this.source = event.source as string;
  if (event.subject !== undefined) this.subject = event.subject as string;
  if (event.time !== undefined) this.time = event.time as string;
  if (event.datacontenttype !== undefined) this.datacontenttype = event.datacontenttype as string;
  if (event.dataschema !== undefined) this.dataschema = event.dataschema as string;
  if (event.sequence !== undefined) this.sequence = event.sequence as string;
  if (event.sequencetype !== undefined) this.sequencetype = event.sequencetype as string;
  if (event.dataref !== undefined) this.dataref = event.dataref as string;
  const extensions = extensionsOf(event);
  if (extensions !== undefined) this.extensions = extensions;
});

/** The event's data as JSON: `data`, or `data_base64` decoded (CloudEvents JSON format §3.1). */
function dataOf(event: Record<string, unknown>, path: string): unknown {
  if (event.data !== undefined) return event.data;
  const base64 = event.data_base64;
  if (base64 !== undefined) {
    if (typeof base64 !== 'string') return invalid('invalid-attribute', `${path}.data_base64 must be a string`, `${path}.data_base64`);
    const text = base64ToText(base64, `${path}.data_base64`);
    return isInvalid(text) ? text : parseJsonText(text, `${path}.data_base64`);
  }
  return invalid('missing-attribute', `${path}.data is missing`, `${path}.data`);
}

/**
 * Validates a structured-mode CloudEvent (already JSON-decoded) and its Platform payload. This is
 * the hot path for CloudEvents deliveries, so it does not go through the `cloudevents` package,
 * whose schema validation costs several times the whole parse.
 */
export function readStructuredCloudEvent(event: Record<string, unknown>, path: string): ValidCloudEvent | Invalid {
  const problem = attributeProblem(event, path);
  if (problem) return problem;
  const data = dataOf(event, path);
  if (isInvalid(data)) return data;
  const payload = validatePlatformPayload(data, `${path}.data`);
  if (isInvalid(payload)) return payload;
  return { attributes: new Attributes(event), payload };
}

function headerValue(headers: HttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : (value as string | undefined);
}

/**
 * Binary content mode over HTTP (CloudEvents HTTP binding §3.1): attributes in `ce-*` headers,
 * data in the body. Not a hot path (Herald's destinations deliver structured events), so the
 * `cloudevents` package does the header mapping and percent-decoding.
 */
export function readHttpBinaryCloudEvent(headers: HttpHeaders, body: string, path: string): ValidCloudEvent | Invalid {
  // The package invents a `time` and tolerates absent required attributes, so check them first.
  for (const name of ['specversion', ...REQUIRED_ATTRIBUTES]) {
    if (headerValue(headers, `ce-${name}`) === undefined) {
      return invalid('missing-attribute', `header ce-${name} is missing`, `${path}.headers.ce-${name}`);
    }
  }
  const contentType = headerValue(headers, 'content-type');
  if (contentType !== undefined && !isJsonContentType(contentType)) {
    return invalid('unsupported-content-type', `content-type ${JSON.stringify(contentType)} is not JSON`, `${path}.headers.content-type`);
  }
  if (body.length === 0) return invalid('empty-body', 'a binary-mode CloudEvent without data', `${path}.body`);
  let decoded: unknown;
  try {
    const plainHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      const single = Array.isArray(value) ? value[0] : value;
      if (typeof single === 'string') plainHeaders[name] = single;
    }
    if (plainHeaders['content-type'] === undefined) plainHeaders['content-type'] = 'application/json';
    decoded = HTTP.toEvent({ headers: plainHeaders, body });
  } catch (error) {
    const reason = error instanceof SyntaxError ? 'invalid-json' : 'invalid-attribute';
    return invalid(reason, `not a binary-mode CloudEvent: ${(error as Error).message}`, `${path}.body`);
  }
  if (Array.isArray(decoded) || !isJsonObject(decoded)) {
    return invalid('unrecognized-shape', 'binary-mode headers with a batch body', `${path}.body`);
  }
  // The package rewrites `time` as an ISO string in UTC with milliseconds (an offset and further
  // digits are lost): the attribute is kept as sent (its format is checked like a structured one's).
  const time = headerValue(headers, 'ce-time');
  return readStructuredCloudEvent(time === undefined ? { ...decoded } : { ...decoded, time }, path);
}

/**
 * Binary content mode over a transport with message attributes: Pub/Sub (`ce-` attributes, data
 * in the message data) and AMQP / Service Bus (`cloudEvents:` or `cloudEvents_` application
 * properties, data in the body). `data` is the already-decoded JSON body.
 */
export function readAttributeBinaryCloudEvent(
  attributes: Readonly<Record<string, unknown>>,
  prefixes: readonly string[],
  contentType: string | undefined,
  data: unknown,
  path: string,
): ValidCloudEvent | Invalid {
  const event: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(attributes)) {
    for (const prefix of prefixes) {
      if (name.startsWith(prefix)) {
        // AMQP may carry a timestamp as a Date; the JSON format wants a string.
        event[name.slice(prefix.length)] = value instanceof Date ? value.toISOString() : value;
        break;
      }
    }
  }
  if (contentType !== undefined && event.datacontenttype === undefined) event.datacontenttype = contentType;
  event.data = data;
  return readStructuredCloudEvent(event, path);
}

/** Does this attribute map hold a binary-mode CloudEvent (has a prefixed `specversion`)? */
export function hasBinaryCloudEventAttributes(attributes: Readonly<Record<string, unknown>> | undefined, prefixes: readonly string[]): boolean {
  if (attributes === undefined) return false;
  return prefixes.some((prefix) => attributes[`${prefix}specversion`] !== undefined);
}
