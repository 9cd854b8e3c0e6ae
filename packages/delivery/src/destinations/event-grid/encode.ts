import type { DeliveryPayload, Format } from '@herald/model';
import type { FormatOptions } from '../../format/formatted.js';
import { encodeWithFallback } from '../encode-pipeline.js';
import { failure } from '../failure.js';
import type { DestinationLimits, EncodeResult } from '../port.js';

/** Event Grid's limit per event and per publish request: 1 MB. */
const REQUEST_LIMIT_BYTES = 1_048_576;

export const EVENT_GRID_LIMITS: DestinationLimits = Object.freeze({
  // The SDK always publishes a JSON array, so even a single event is sent inside `[` `]`.
  maxMessageBytes: REQUEST_LIMIT_BYTES - 2,
  maxBatchEntries: 5_000,
  // Room for the brackets and the commas between up to 5,000 events.
  maxBatchBytes: REQUEST_LIMIT_BYTES - 8_192,
});

/**
 * A CloudEvent as plain data, in Event Grid's native CloudEvents 1.0 schema; the SDK sends an
 * array of them as `application/cloudevents-batch+json`.
 */
export interface EventGridNativeEvent {
  id: string;
  type: string;
  source: string;
  subject: string;
  time: string;
  datacontenttype: string;
  data: DeliveryPayload;
  /** `sequence`, `sequencetype`, `dataref` for messages (§6.2). */
  extensionAttributes: Record<string, string>;
}

/**
 * Herald's CloudEvents carry no `datacontenttype` (§6.2, reference CloudEventsPayload), but the
 * Azure SDK writes one into every event it sends: its bytes count towards the 1 MB request limit.
 */
const DATA_CONTENT_TYPE_BYTES = Buffer.byteLength(',"datacontenttype":"application/json"');

/** §2.4: an Event Grid destination takes the CloudEvents format only. */
export function encodeEventGrid(payload: DeliveryPayload, format: Format, options: FormatOptions): EncodeResult<EventGridNativeEvent> {
  if (format.type !== 'CloudEvents') {
    return {
      ok: false,
      failure: failure('configuration', 'FormatNotSupported', 'Event Grid destinations take the CloudEvents format only'),
    };
  }
  return encodeWithFallback(payload, format, options, EVENT_GRID_LIMITS.maxMessageBytes, (formatted) => {
    if (formatted.format !== 'CloudEvents') throw new TypeError('CloudEvents format expected');
    const { event } = formatted;
    const extensionAttributes: Record<string, string> = {};
    for (const name of ['sequence', 'sequencetype', 'dataref'] as const) {
      const value = event[name];
      if (typeof value === 'string') extensionAttributes[name] = value;
    }
    return {
      native: {
        id: event.id,
        type: event.type,
        source: event.source,
        subject: event.subject ?? '',
        time: event.time ?? '',
        datacontenttype: event.datacontenttype ?? 'application/json',
        data: formatted.payload,
        extensionAttributes,
      },
      sizeBytes: Buffer.byteLength(formatted.json) + DATA_CONTENT_TYPE_BYTES,
    };
  });
}
