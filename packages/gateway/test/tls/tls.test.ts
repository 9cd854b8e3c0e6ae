import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { freePort } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, startHerald, type RunningHerald } from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'herald-tls-'));

/** A throwaway self-signed ECDSA certificate for 127.0.0.1. */
function selfSignedCertificate(): { cert: string; key: string } {
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  execFileSync('openssl', ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', key], { stdio: 'pipe' });
  execFileSync('openssl', ['req', '-new', '-x509', '-key', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1'], {
    stdio: 'pipe',
  });
  return { cert, key };
}

function handshake(port: number, options: { minVersion?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2'; maxVersion?: 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3'; ciphers?: string }) {
  return new Promise<{ ok: true; protocol: string | null; cipher: string } | { ok: false }>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false, ...options }, () => {
      const result = { ok: true as const, protocol: socket.getProtocol(), cipher: socket.getCipher().name };
      socket.end();
      resolve(result);
    });
    socket.on('error', () => resolve({ ok: false }));
  });
}

/** §1.3, §7, §8 TLS: HTTPS with TLS 1.2/1.3 and the listed suites only; plain HTTP gets 404 with HTML. */
describe('TLS', () => {
  let herald: RunningHerald;
  let port: number;
  let plainPort: number;

  beforeAll(async () => {
    const { cert, key } = selfSignedCertificate();
    port = await freePort();
    plainPort = await freePort();
    herald = await startHerald(
      loadConfig({
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: 'pglite://memory',
        LOG_LEVEL: 'silent',
        HERALD_DELIVERY: 'off',
        HERALD_TLS_CERT: cert,
        HERALD_TLS_KEY: key,
        HERALD_HTTP_PORT: String(plainPort),
      }),
    );
  });
  afterAll(async () => {
    await herald?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the API over HTTPS', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpsRequest({ host: '127.0.0.1', port, path: '/healthz', rejectUnauthorized: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
  });

  it('accepts TLS 1.3 and TLS 1.2 with a listed suite', async () => {
    expect(await handshake(port, {})).toMatchObject({ ok: true, protocol: 'TLSv1.3' });
    expect(await handshake(port, { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256' })).toEqual({
      ok: true,
      protocol: 'TLSv1.2',
      cipher: 'ECDHE-ECDSA-AES128-GCM-SHA256',
    });
  });

  it('refuses TLS 1.1 and TLS 1.2 suites the spec does not list', async () => {
    expect(await handshake(port, { minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT:@SECLEVEL=0' })).toEqual({ ok: false });
    expect(await handshake(port, { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-SHA' })).toEqual({ ok: false });
  });

  it('answers every plain-HTTP request with 404 and an HTML body', async () => {
    for (const path of ['/healthz', '/demo/stores', '/oauth/token']) {
      const response = await fetch(`http://127.0.0.1:${plainPort}${path}`);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(await response.text()).toContain('<html>');
    }
  });
});
