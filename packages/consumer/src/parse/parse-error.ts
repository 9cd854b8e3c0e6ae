import type { DeliverySource } from '../delivery.js';

/**
 * Why an input is not a delivery. Stable strings: use them in `onParseError` policies and
 * dashboards (`herald_consumer_parse_errors_total{reason}`).
 */
export type ParseErrorReason =
  /** No body, or an empty one. */
  | 'empty-body'
  /** An event subscription's delivery reached a consumer without an `onEvent` handler. */
  | 'no-event-handler'
  /** The body is not JSON (or not UTF-8 / base64 where that is required). */
  | 'invalid-json'
  /** JSON, but none of the shapes a delivery can take. */
  | 'unrecognized-shape'
  /** A transport envelope (SNS, EventBridge, Pub/Sub push) is malformed. */
  | 'invalid-envelope'
  /** A CloudEvent whose `specversion` is not 1.0. */
  | 'unsupported-specversion'
  /** A required CloudEvents attribute or payload field is absent. */
  | 'missing-attribute'
  /** An attribute or field has the wrong type or an impossible value. */
  | 'invalid-attribute'
  /** The data is not JSON (a datacontenttype the Platform payload cannot have). */
  | 'unsupported-content-type'
  /** The payload is not a Platform payload (§6.2): wrong or missing fields. */
  | 'invalid-payload';

/** A typed parse failure: a value, never thrown. */
export interface ParseError {
  readonly reason: ParseErrorReason;
  readonly message: string;
  /** Where in the input the problem is, e.g. `Message.detail.data.resource.id`. */
  readonly path?: string;
  readonly source: DeliverySource;
}

/**
 * Internal: a failure before the source is attached. A class, recognised with `instanceof`: a
 * property check would also match user JSON (a Message's own fields, a crafted push body), which
 * would then be dead-lettered, or choose its own `reason` label.
 */
export class Invalid {
  constructor(
    readonly reason: ParseErrorReason,
    readonly message: string,
    readonly path: string | undefined,
  ) {}
}

export function invalid(reason: ParseErrorReason, message: string, path?: string): Invalid {
  return new Invalid(reason, message, path);
}

export function isInvalid(value: unknown): value is Invalid {
  return value instanceof Invalid;
}
