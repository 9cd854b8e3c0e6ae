import { request } from 'node:https';
import type { SecureContextOptions } from 'node:tls';

export interface HttpsGetResponse {
  readonly statusCode: number;
  readonly body: string;
}

/** GETs an https URL (never anything else: node:https refuses other schemes), without following redirects. */
export type HttpsGet = (url: URL) => Promise<HttpsGetResponse>;

export interface HttpsGetterOptions {
  /** Trusted CAs instead of Node's bundled roots (tests serve certificates signed by a test CA). */
  readonly ca?: SecureContextOptions['ca'];
  /** Default 10 s. */
  readonly timeoutMs?: number;
  /** Largest response read; default 1 MiB (a signing certificate is ~2 KiB). */
  readonly maxBytes?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 1024 * 1024;

/** The default way certificates are fetched and subscriptions confirmed: node:https with the given trust. */
export function httpsGetter(options: HttpsGetterOptions = {}): HttpsGet {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  return (url) =>
    new Promise((resolve, reject) => {
      const outgoing = request(url, { method: 'GET', timeout: timeoutMs, ...(options.ca === undefined ? {} : { ca: options.ca }) }, (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) response.destroy(new Error(`${url.origin} answered more than ${maxBytes} bytes`));
          else chunks.push(chunk);
        });
        response.on('end', () => resolve({ statusCode: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      });
      outgoing.on('timeout', () => outgoing.destroy(new Error(`GET ${url.origin} timed out after ${timeoutMs} ms`)));
      outgoing.on('error', reject);
      outgoing.end();
    });
}
