/**
 * Hostile requests over a real TCP socket (`app.listen({ port: 0 })`), where Node's HTTP parser
 * and the server's timeouts are involved (inject bypasses both):
 *
 *   - invalid UTF-8 and NUL bytes in raw bodies, plain and chunked, on a resource and a token route;
 *   - malformed HTTP (bad request line, unknown HTTP version, conflicting Content-Length, both
 *     Content-Length and Transfer-Encoding, a header block beyond Node's 16 KB) → a 4xx in the
 *     error shape, written by the gateway's client-error handler;
 *   - Content-Length larger than what is sent, then the client gives up (aborted bodies);
 *   - slowloris-ish clients: many connections that send a partial header block or a partial body
 *     and stall; while they hang, ordinary requests are served, and the server has finite header
 *     and request timeouts (so they are eventually cut).
 *
 * Every exchange is bounded by a client-side timeout; nothing is logged at error level; `/healthz`
 * answers at the end.
 */
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchange, type RawAnswer } from '../support/raw-socket.js';
import { isRestErrorShape, startWorld, type MultiWorld, type ProjectWorld } from './support.js';

const A = 'socket-a';
/** A configured HERALD_BODY_LIMIT_BYTES, smaller than the default. */
const BODY_LIMIT = 64 * 1024;

describe('hostile requests over a real socket', { timeout: 60_000 }, () => {
  let world: MultiWorld;
  let a: ProjectWorld;
  let port: number;
  const stalled: Socket[] = [];

  beforeAll(async () => {
    world = await startWorld({ projects: [A], bodyLimitBytes: BODY_LIMIT });
    a = world.projects.get(A) as ProjectWorld;
    const address = await world.gateway.app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(address).port);
  });
  afterAll(async () => {
    for (const socket of stalled) socket.destroy();
    await world?.close();
  });

  const auth = () => `Authorization: Bearer ${a.admin}\r\n`;
  const basic = () =>
    `Authorization: Basic ${Buffer.from(`${world.gateway.bootstrapClient.id}:${world.gateway.bootstrapClient.secret}`).toString('base64')}\r\n`;

  function post(path: string, body: Buffer, headers: string, contentType = 'application/json'): Buffer {
    return Buffer.concat([
      Buffer.from(
        `POST ${path} HTTP/1.1\r\nHost: localhost\r\n${headers}Content-Type: ${contentType}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
      ),
      body,
    ]);
  }

  function chunked(path: string, parts: Buffer[], headers: string): Buffer {
    const frames = parts.flatMap((part) => [Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]);
    return Buffer.concat([
      Buffer.from(
        `POST ${path} HTTP/1.1\r\nHost: localhost\r\n${headers}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`,
      ),
      ...frames,
      Buffer.from('0\r\n\r\n'),
    ]);
  }

  function expectShaped(answer: RawAnswer, statuses: readonly number[], what: string): void {
    expect(statuses, `${what}: ${answer.headers}\n${answer.body.slice(0, 300)}`).toContain(answer.status);
    if (answer.status >= 400) {
      let body: unknown;
      try {
        body = JSON.parse(answer.body);
      } catch {
        body = answer.body;
      }
      expect(isRestErrorShape(body, answer.status), `${what}: not in the error shape: ${answer.body.slice(0, 300)}`).toBe(true);
    }
  }

  function expectNoErrorLogged(): void {
    expect(world.logs.errors()).toEqual([]);
  }

  it('answers invalid UTF-8 and NUL bytes in raw bodies without a 5xx', async () => {
    const bodies: Array<[string, Buffer]> = [
      ['invalid bytes in a key', Buffer.concat([Buffer.from('{"key":"ab'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')])],
      ['overlong slash in a name', Buffer.concat([Buffer.from('{"key":"utf8-overlong","name":{"en":"a'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}}')])],
      ['encoded surrogate', Buffer.concat([Buffer.from('{"key":"utf8-surrogate","name":{"en":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}}')])],
      ['raw NUL byte in a string', Buffer.concat([Buffer.from('{"key":"utf8-nul","name":{"en":"a'), Buffer.from([0x00]), Buffer.from('b"}}')])],
      ['escaped NUL in a string', Buffer.from('{"key":"utf8-nul-escaped","name":{"en":"a\\u0000b"}}')],
      ['truncated multi-byte sequence at the end', Buffer.concat([Buffer.from('{"key":"x"}'), Buffer.from([0xe2, 0x82])])],
      ['UTF-16 body', Buffer.from('{"key":"utf16"}', 'utf16le')],
      ['bytes only', Buffer.from([0xff, 0xfe, 0xfd, 0x00, 0x80])],
    ];
    for (const [what, body] of bodies) {
      expectShaped(await exchange(port, [post(`/${A}/stores`, body, auth())]), [201, 400], what);
      expectShaped(await exchange(port, [chunked(`/${A}/stores`, [body.subarray(0, 3), body.subarray(3)], auth())]), [201, 400], `${what} (chunked)`);
    }
    const form = Buffer.concat([Buffer.from('grant_type=client_credentials&scope='), Buffer.from([0xff, 0x00, 0xc0]), Buffer.from(`manage_project:${A}`)]);
    expectShaped(await exchange(port, [post('/oauth/token', form, basic(), 'application/x-www-form-urlencoded')]), [400], 'form with invalid bytes');
    expectNoErrorLogged();
  });

  it('answers malformed HTTP with a 4xx in the error shape', async () => {
    const cases: Array<[string, string | Buffer, readonly number[]]> = [
      ['garbage request line', 'NOT HTTP AT ALL\r\n\r\n', [400]],
      ['unknown HTTP version', `GET /${A}/stores HTTP/3.7\r\nHost: x\r\n\r\n`, [400, 505]],
      ['conflicting Content-Length', `POST /${A}/stores HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 5\r\n\r\n{}`, [400]],
      [
        'Content-Length and Transfer-Encoding',
        `POST /${A}/stores HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
        [400],
      ],
      ['invalid chunk size', `POST /${A}/stores HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`, [400]],
      ['header block beyond 16 KB', `GET /${A}/stores HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`, [431]],
      [
        'NUL in a header value',
        Buffer.concat([Buffer.from(`GET /${A}/stores HTTP/1.1\r\nHost: x\r\nX-A: a`), Buffer.from([0x00]), Buffer.from('b\r\n\r\n')]),
        [400],
      ],
      ['space before a header colon', `GET /${A}/stores HTTP/1.1\r\nHost : x\r\n\r\n`, [400]],
      [
        'raw non-ASCII in the path',
        Buffer.concat([Buffer.from(`GET /${A}/stores/`), Buffer.from([0xff, 0xfe]), Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n')]),
        [400, 401, 404],
      ],
      ['upgrade request', `GET /${A}/stores HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n${auth()}\r\n`, [400]],
      ['body on a GET', `GET /${A}/stores HTTP/1.1\r\nHost: x\r\n${auth()}Content-Length: 2\r\nConnection: close\r\n\r\n{}`, [400]],
    ];
    for (const [what, request, statuses] of cases) {
      const answer = await exchange(port, [request]);
      expectShaped(answer, statuses, what);
    }
    expectNoErrorLogged();
  });

  it('answers 413 beyond the configured body limit, with Content-Length or chunked', async () => {
    const big = Buffer.from(`{"key":"big","name":{"en":"${'x'.repeat(BODY_LIMIT)}"}}`);
    expectShaped(await exchange(port, [post(`/${A}/stores`, big, auth())]), [413], 'Content-Length beyond the limit');
    const parts = Array.from({ length: 20 }, (_, i) => big.subarray((i * big.length) / 20, ((i + 1) * big.length) / 20));
    expectShaped(await exchange(port, [chunked(`/${A}/stores`, parts, auth())]), [413], 'chunked beyond the limit');
    // Just below the limit is read (and refused for what it says, not for its size).
    const below = Buffer.from(`{"key":"below","name":{"en":"${'x'.repeat(BODY_LIMIT - 100)}"}}`);
    expectShaped(await exchange(port, [post(`/${A}/stores`, below, auth())]), [201, 400], 'below the limit');
    const form = Buffer.from(`grant_type=client_credentials&scope=${'x'.repeat(20_000)}`);
    expectShaped(await exchange(port, [post('/oauth/token', form, basic(), 'application/x-www-form-urlencoded')]), [413], 'token request beyond 16 KB');
    expectNoErrorLogged();
  });

  it('survives bodies shorter than their Content-Length and clients that give up mid-body', async () => {
    const partial = `POST /${A}/stores HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nContent-Length: 5000\r\nConnection: close\r\n\r\n{"key":"part`;
    const answers = await Promise.all(Array.from({ length: 10 }, () => exchange(port, [partial], { timeoutMs: 300 })));
    // The client gave up before the body was complete: nothing was answered, nothing was created.
    for (const answer of answers) expect(answer.status).toBe(0);
    const stores = await world.gateway.app.inject({
      method: 'GET',
      url: `/${A}/stores?where=${encodeURIComponent('key = "part"')}`,
      headers: { authorization: `Bearer ${a.admin}` },
    });
    expect((stores.json() as { total: number }).total).toBe(0);
    expectNoErrorLogged();
  });

  it('keeps serving while slowloris-ish clients stall, and has finite header and request timeouts', async () => {
    const server = world.gateway.app.server;
    expect(server.headersTimeout).toBeGreaterThan(0);
    expect(server.requestTimeout).toBeGreaterThan(0);
    expect(server.headersTimeout).toBeLessThanOrEqual(server.requestTimeout);

    // 50 connections: half stall inside the header block, half inside a declared body.
    const pending: Array<Promise<RawAnswer>> = [];
    for (let i = 0; i < 25; i++) {
      pending.push(exchange(port, [`GET /${A}/stores HTTP/1.1\r\nHost: x\r\nX-Slow-${i}: `], { timeoutMs: 3_000, keep: stalled }));
      pending.push(
        exchange(port, [`POST /${A}/stores HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nContent-Length: 10000\r\n\r\n{"key":`], {
          timeoutMs: 3_000,
          keep: stalled,
        }),
      );
    }
    // Meanwhile, ordinary requests are answered promptly (each bounded by the client's timeout).
    for (let i = 0; i < 10; i++) {
      const answer = await exchange(port, [`GET /${A}/stores HTTP/1.1\r\nHost: x\r\n${auth()}Connection: close\r\n\r\n`], { timeoutMs: 3_000 });
      expect(answer.status, `request ${i} while 50 connections stall`).toBe(200);
    }
    const health = await exchange(port, ['GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'], { timeoutMs: 3_000 });
    expect(health.status).toBe(200);
    // A stalled request is answered with nothing before the server's timeouts; the client gives up.
    const stalledAnswers = await Promise.all(pending);
    expect(stalledAnswers.every((answer) => answer.status === 0 || answer.status === 408)).toBe(true);
    for (const socket of stalled) socket.destroy();
    expectNoErrorLogged();
  });

  it('is still up', async () => {
    const answer = await exchange(port, ['GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n']);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ status: 'ok' });
  });
});
