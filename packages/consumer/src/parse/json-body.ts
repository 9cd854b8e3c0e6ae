import { invalid, type Invalid } from './parse-error.js';

const BYTE_ORDER_MARK = 0xfeff;

/** Bytes as UTF-8 text (no copy for Buffers, which most transports hand over). */
export function bytesToText(bytes: Uint8Array): string {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return buffer.toString('utf8');
}

/** Parses JSON text; a failure is a value. */
export function parseJsonText(text: string, path: string): unknown {
  if (text.length === 0) return invalid('empty-body', 'the body is empty', path);
  // A UTF-8 byte order mark is legal in a file but not in JSON.parse input.
  const source = text.charCodeAt(0) === BYTE_ORDER_MARK ? text.slice(1) : text;
  try {
    return JSON.parse(source) as unknown;
  } catch (error) {
    return invalid('invalid-json', `the body is not JSON: ${(error as Error).message}`, path);
  }
}

/**
 * A body as JSON: text and bytes are parsed, anything else is taken as JSON its SDK already
 * decoded (Service Bus, a framework's body parser).
 */
export function decodeJsonBody(body: unknown, path: string): unknown {
  if (body === undefined || body === null) return invalid('empty-body', 'there is no body', path);
  if (typeof body === 'string') return parseJsonText(body, path);
  if (body instanceof Uint8Array) return parseJsonText(bytesToText(body), path);
  if (typeof body === 'object') return body;
  return invalid('unrecognized-shape', `the body is a ${typeof body}, not a JSON document`, path);
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decodes standard base64 (Pub/Sub push `data`, CloudEvents `data_base64`) into text. */
export function base64ToText(value: string, path: string): string | Invalid {
  const compact = value.replace(/\s+/g, '');
  if (compact.length % 4 === 1 || !BASE64.test(compact)) return invalid('invalid-json', 'not valid base64', path);
  return Buffer.from(compact, 'base64').toString('utf8');
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `application/json`, `text/json` and any `+json` suffix, ignoring parameters and case. */
export function isJsonContentType(contentType: string): boolean {
  const semicolon = contentType.indexOf(';');
  const mediaType = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  return mediaType === 'application/json' || mediaType === 'text/json' || mediaType.endsWith('+json');
}

/** The media type without parameters, lower-cased. */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}
