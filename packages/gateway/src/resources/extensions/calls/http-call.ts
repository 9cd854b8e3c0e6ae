import { extensionNoResponse, type ExtensionIdentity } from '../errors.js';
import type { HttpAuthentication } from '../extension.js';
import { httpOutcome, type ExtensionOutcome } from './answer.js';

export interface HttpCall {
  url: string;
  authentication?: HttpAuthentication;
  body: string;
  correlationId: string;
  timeoutMs: number;
}

function headersOf(call: HttpCall): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-correlation-id': call.correlationId };
  const auth = call.authentication;
  // AuthorizationHeader: the value as given (scheme included); AzureFunctions: the function key header.
  if (auth?.type === 'AuthorizationHeader') headers.authorization = auth.headerValue;
  if (auth?.type === 'AzureFunctions') headers['x-functions-key'] = auth.key;
  return headers;
}

/** An abort of our own deadline (fetch names it TimeoutError; an AbortSignal abort AbortError). */
export function isDeadline(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

/**
 * POSTs the ExtensionInput (HttpDestination, GoogleCloudFunction). The deadline covers the whole
 * exchange, the answer's body included; redirects are not followed (reference HttpDestination).
 */
export async function callOverHttp(extension: ExtensionIdentity, call: HttpCall): Promise<ExtensionOutcome> {
  let response: Response;
  let body: string;
  try {
    response = await fetch(call.url, {
      method: 'POST',
      headers: headersOf(call),
      body: call.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(call.timeoutMs),
    });
    body = await response.text();
  } catch (error) {
    const why = isDeadline(error) ? `no answer within ${call.timeoutMs} ms` : 'the destination could not be reached';
    return { ok: false, error: extensionNoResponse(extension, why) };
  }
  return httpOutcome(extension, response.status, body);
}
