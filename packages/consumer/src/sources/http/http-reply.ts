import type { HttpHeaders } from '../../parse/raw-delivery.js';

export interface HttpDeliveryReply {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** The project's error shape (ARCHITECTURE.md, HTTP conventions). */
export function errorReply(statusCode: number, code: string, message: string, headers: Record<string, string> = {}): HttpDeliveryReply {
  return {
    statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify({ statusCode, message, errors: [{ code, message }] }),
  };
}

/** The first value of a header (node:http lower-cases names; repeated headers arrive as arrays). */
export function headerValue(headers: HttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : (value as string | undefined);
}
