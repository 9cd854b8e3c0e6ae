/**
 * PutPartnerEvents entries: what the SDK puts on the wire, what the peer records, and the
 * per-entry checks EventBridge applies.
 */

/** One entry of `{"Entries":[…]}` as sent by `@aws-sdk/client-eventbridge` (JSON 1.1). */
export interface WireEntry {
  /** Epoch seconds; the SDK serialises a `Date` as a number. */
  readonly Time?: number;
  readonly Source?: string;
  readonly DetailType?: string;
  /** A JSON document, as a string. */
  readonly Detail?: string;
  readonly Resources?: readonly string[];
}

/** An event the peer accepted, with `Detail` parsed back into a value. */
export interface ReceivedPartnerEvent {
  readonly EventId: string;
  readonly Time?: Date;
  readonly Source: string;
  readonly DetailType: string;
  readonly Detail: unknown;
  readonly Resources?: readonly string[];
}

/** One element of the response's `Entries`: an id, or an error code and message. */
export type ResultEntry = { readonly EventId: string } | { readonly ErrorCode: string; readonly ErrorMessage: string };

export interface EntryFailure {
  readonly ErrorCode: string;
  readonly ErrorMessage: string;
}

/** PutPartnerEvents accepts 1 to 20 entries per call (API reference, `Entries`). */
export const MAX_ENTRIES_PER_CALL = 20;

/** "The maximum size for a PutEvents event entry is 256 KB" (API reference, PutEvents). */
export const MAX_ENTRY_BYTES = 262_144;

/** 128 characters (API reference, `DetailType`). */
const MAX_DETAIL_TYPE_LENGTH = 128;

/**
 * The entry size EventBridge charges against its limits, per "Calculating Amazon EventBridge
 * PutEvents event entry size" (User Guide): Time counts 14 bytes when present; Source, DetailType,
 * Detail and each Resource count their UTF-8 bytes. JSON keys and punctuation do not count.
 */
export function entrySize(entry: WireEntry): number {
  let size = entry.Time === undefined ? 0 : 14;
  size += utf8Length(entry.Source) + utf8Length(entry.DetailType) + utf8Length(entry.Detail);
  for (const resource of entry.Resources ?? []) size += utf8Length(resource);
  return size;
}

const utf8Length = (text: string | undefined): number => (text === undefined ? 0 : Buffer.byteLength(text, 'utf8'));

/**
 * The per-entry failure EventBridge reports for a malformed entry, or undefined when it is valid.
 * Codes are the documented `PutEventsResultEntry` codes: `InvalidArgument` ("a specified parameter
 * is not valid") and `MalformedDetail` ("the JSON provided is not valid").
 */
export function entryFailure(entry: WireEntry): EntryFailure | undefined {
  if (typeof entry.Source !== 'string' || entry.Source.length === 0) {
    return invalidArgument('Parameter Source is not valid. Reason: Source is a required argument.');
  }
  if (typeof entry.DetailType !== 'string' || entry.DetailType.length === 0) {
    return invalidArgument('Parameter DetailType is not valid. Reason: DetailType is a required argument.');
  }
  if (entry.DetailType.length > MAX_DETAIL_TYPE_LENGTH) {
    return invalidArgument(`Parameter DetailType is not valid. Reason: longer than ${MAX_DETAIL_TYPE_LENGTH} characters.`);
  }
  if (typeof entry.Detail !== 'string') {
    return invalidArgument('Parameter Detail is not valid. Reason: Detail is a required argument.');
  }
  // The API reference asks for "a valid JSON object": arrays and scalars are refused too.
  if (!isJsonObject(entry.Detail)) return { ErrorCode: 'MalformedDetail', ErrorMessage: 'Detail is malformed.' };
  if (entrySize(entry) > MAX_ENTRY_BYTES) return oversizedEntry();
  return undefined;
}

export function invalidArgument(message: string): EntryFailure {
  return { ErrorCode: 'InvalidArgument', ErrorMessage: message };
}

/**
 * The failure of an entry over 256 KB. The service documents no dedicated code, so the peer uses
 * the documented per-entry code for an invalid parameter.
 */
export function oversizedEntry(): EntryFailure {
  return invalidArgument(`Parameter Entries is not valid. Reason: the entry exceeds the maximum size of ${MAX_ENTRY_BYTES} bytes.`);
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** The record a test sees: the wire entry with its id, `Time` as a Date and `Detail` parsed. */
export function toReceived(entry: WireEntry, eventId: string): ReceivedPartnerEvent {
  return {
    EventId: eventId,
    ...(entry.Time === undefined ? {} : { Time: new Date(entry.Time * 1000) }),
    Source: entry.Source ?? '',
    DetailType: entry.DetailType ?? '',
    Detail: JSON.parse(entry.Detail ?? 'null') as unknown,
    ...(entry.Resources === undefined ? {} : { Resources: [...entry.Resources] }),
  };
}

/** Narrows the parsed request body to the entries array, or undefined when it is not one. */
export function readEntries(body: unknown): WireEntry[] | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const entries = (body as { Entries?: unknown }).Entries;
  if (!Array.isArray(entries)) return undefined;
  if (!entries.every((entry) => typeof entry === 'object' && entry !== null && !Array.isArray(entry))) return undefined;
  return entries as WireEntry[];
}
