import { createServer, type Server } from 'node:http';
import type { TlsConfig } from '../config/config.js';

/** §8 TLS: versions 1.2 and 1.3 with exactly these TLS 1.2 cipher suites (OpenSSL names). */
export const TLS12_CIPHERS = [
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-SHA384',
  'ECDHE-RSA-AES256-SHA384',
  'ECDHE-ECDSA-AES128-SHA256',
  'ECDHE-RSA-AES128-SHA256',
] as const;

export function httpsOptions(tls: TlsConfig) {
  return {
    cert: tls.cert,
    key: tls.key,
    minVersion: 'TLSv1.2' as const,
    maxVersion: 'TLSv1.3' as const,
    ciphers: TLS12_CIPHERS.join(':'),
    honorCipherOrder: true,
  };
}

const NOT_FOUND_HTML =
  '<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>404 Not Found</h1>' + '<p>This API is served over HTTPS only.</p></body></html>';

/** §1.3 and §7: a plain-HTTP connection gets 404 with an HTML body, whatever it asks for. */
export function plainHttpRefuser(): Server {
  return createServer((request, response) => {
    request.resume();
    response.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8', Connection: 'close' });
    response.end(NOT_FOUND_HTML);
  });
}
