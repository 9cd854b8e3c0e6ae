/**
 * Validation of CloudEvents 1.0 in the JSON event format, as Event Grid checks them before it
 * accepts a batch. Pure: no I/O.
 */

/** A CloudEvent as received in the JSON format (spec 1.0, JSON event format section 3). */
export interface ReceivedCloudEvent {
  readonly specversion: string;
  readonly id: string;
  readonly source: string;
  readonly type: string;
  readonly [attribute: string]: unknown;
}

export type BatchParseResult = { readonly ok: true; readonly events: ReceivedCloudEvent[] } | { readonly ok: false; readonly message: string };

/** Attributes whose value must be a string when present (CloudEvents 1.0 "Optional Attributes"). */
const OPTIONAL_STRING_ATTRIBUTES = ['datacontenttype', 'dataschema', 'subject', 'time'] as const;

/** CloudEvents 1.0 "Attribute Naming Convention": lower-case ASCII letters and digits only. */
const ATTRIBUTE_NAME = /^[a-z0-9]+$/;

/** Parses a `application/cloudevents-batch+json` body (CloudEvents JSON format, section 4: batches). */
export function parseCloudEventBatch(body: string): BatchParseResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    return { ok: false, message: `The request body is not valid JSON: ${(error as Error).message}` };
  }
  if (!Array.isArray(parsed)) return { ok: false, message: 'A CloudEvents batch must be a JSON array.' };
  if (parsed.length === 0) return { ok: false, message: 'The batch contains no events.' };
  const events: ReceivedCloudEvent[] = [];
  for (const [index, candidate] of parsed.entries()) {
    const problem = cloudEventProblem(candidate);
    if (problem !== undefined) return { ok: false, message: `Event at index ${index}: ${problem}` };
    events.push(candidate as ReceivedCloudEvent);
  }
  return { ok: true, events };
}

/** Parses a single structured-mode event (`application/cloudevents+json`). */
export function parseSingleCloudEvent(body: string): BatchParseResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    return { ok: false, message: `The request body is not valid JSON: ${(error as Error).message}` };
  }
  const problem = cloudEventProblem(parsed);
  return problem === undefined ? { ok: true, events: [parsed as ReceivedCloudEvent] } : { ok: false, message: problem };
}

/** Why `candidate` is not a valid CloudEvent 1.0, or undefined when it is. */
export function cloudEventProblem(candidate: unknown): string | undefined {
  if (typeof candidate !== 'object' || candidate === null || Array.isArray(candidate)) {
    return 'an event must be a JSON object.';
  }
  const event = candidate as Record<string, unknown>;
  // Spec 1.0 "REQUIRED Attributes": specversion, id, source, type, all non-empty strings.
  if (event['specversion'] !== '1.0') return `specversion must be "1.0", got ${JSON.stringify(event['specversion'])}.`;
  for (const name of ['id', 'source', 'type'] as const) {
    const value = event[name];
    if (typeof value !== 'string' || value.length === 0) return `required attribute '${name}' must be a non-empty string.`;
  }
  for (const name of OPTIONAL_STRING_ATTRIBUTES) {
    const value = event[name];
    if (value !== undefined && value !== null && typeof value !== 'string') return `attribute '${name}' must be a string.`;
  }
  const time = event['time'];
  if (typeof time === 'string' && Number.isNaN(Date.parse(time))) return `attribute 'time' is not an RFC 3339 timestamp.`;
  // JSON format 3.1: `data` and `data_base64` are mutually exclusive.
  if (event['data'] !== undefined && event['data_base64'] !== undefined) {
    return `'data' and 'data_base64' must not both be present.`;
  }
  if (event['data_base64'] !== undefined && typeof event['data_base64'] !== 'string') return `'data_base64' must be a string.`;
  for (const name of Object.keys(event)) {
    if (name === 'data_base64') continue;
    if (!ATTRIBUTE_NAME.test(name)) return `attribute name '${name}' is not lower-case alphanumeric.`;
  }
  return undefined;
}
