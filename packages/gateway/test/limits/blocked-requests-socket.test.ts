/**
 * §8 "Request URL plus headers: blocked when longer than about 15 KB" and "Also blocked: a
 * body on a method that allows none; an upgrade header" (unknown versions: http/http-versions), over a real
 * socket (inject bypasses Node's HTTP parser and its 16 KiB header limit). Every block must be a
 * 4xx in the §7 error shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_URL_AND_HEADERS_BYTES } from '../../src/http/guards.js';
import { exchange as exchangeChunks, type RawAnswer } from '../support/raw-socket.js';
import { startTestGateway, tokenFor, type TestGateway } from '../support/gateway.js';

const P = 'limits-blocked';

/** One raw request on a fresh connection. */
function exchange(port: number, raw: string, timeoutMs?: number): Promise<RawAnswer> {
  return exchangeChunks(port, [raw], timeoutMs === undefined ? {} : { timeoutMs });
}

function expectBlocked(answer: RawAnswer, what: string, statuses?: readonly number[]): void {
  expect(answer.status, `${what}: ${answer.headers}\n${answer.body.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(answer.status, `${what}: ${answer.headers}\n${answer.body.slice(0, 300)}`).toBeLessThan(500);
  if (statuses !== undefined) expect(statuses, what).toContain(answer.status);
  // Every answer carries a correlation id, also those Node's parser refused before routing.
  expect(answer.headers, what).toMatch(/\r\nx-correlation-id: [A-Za-z0-9_-]{8,256}(\r|$)/im);
  const body = JSON.parse(answer.body) as { statusCode?: unknown; message?: unknown; errors?: Array<{ code?: unknown; message?: unknown }> };
  expect(body.statusCode, what).toBe(answer.status);
  expect(typeof body.message, what).toBe('string');
  expect(typeof body.errors?.[0]?.code, what).toBe('string');
  expect(typeof body.errors?.[0]?.message, what).toBe('string');
}

describe('§8 blocked requests over a real socket', () => {
  let gateway: TestGateway;
  let token: string;
  let port: number;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    token = await tokenFor(gateway, P, ['manage_project']);
    await gateway.app.listen({ port: 0, host: '127.0.0.1' });
    port = (gateway.app.server.address() as { port: number }).port;
  });
  afterAll(() => gateway?.close());

  /** A GET whose URL plus headers (as the guard counts them) come to `total` bytes with `padding` in a header. */
  function getOfSize(path: string, total: number, where: 'header' | 'url'): string {
    const headers: Array<[string, string]> = [
      ['Host', 'x'],
      ['Authorization', `Bearer ${token}`],
      ['Connection', 'close'],
    ];
    const counted = (url: string, extra: Array<[string, string]>) =>
      Buffer.byteLength(url) + [...headers, ...extra].reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + Buffer.byteLength(value) + 4, 0);
    let url = path;
    const extra: Array<[string, string]> = [];
    if (where === 'header') {
      const base = counted(url, [['X-Padding', '']]);
      extra.push(['X-Padding', 'p'.repeat(total - base)]);
    } else {
      url = `${path}?pad=`;
      url += 'p'.repeat(total - counted(url, []));
    }
    expect(counted(url, extra)).toBe(total);
    return `GET ${url} HTTP/1.1\r\n${[...headers, ...extra].map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
  }

  it('the guard counts 15 KB (15360 bytes)', () => {
    expect(MAX_URL_AND_HEADERS_BYTES).toBe(15 * 1024);
  });

  it('serves URL plus headers of about 14 KB (control)', async () => {
    for (const where of ['header', 'url'] as const) {
      const answer = await exchange(port, getOfSize(`/${P}/stores`, 14 * 1024, where));
      expect(answer.status, `${where}: ${answer.headers} ${answer.body.slice(0, 200)}`).toBe(200);
    }
  });

  it('blocks URL plus headers just above 15 KB (below Node’s 16 KiB parser limit) with 431 in the error shape', async () => {
    for (const where of ['header', 'url'] as const) {
      for (const path of [`/${P}/stores`, `/${P}/no-such-route`, '/oauth/token']) {
        const answer = await exchange(port, getOfSize(path, 15 * 1024 + 200, where));
        expectBlocked(answer, `${where} ${path}`, [431]);
      }
    }
  });

  it('blocks URL plus headers beyond Node’s 16 KiB limit with 431 in the error shape', async () => {
    for (const where of ['header', 'url'] as const) {
      const answer = await exchange(port, getOfSize(`/${P}/stores`, 20 * 1024, where));
      expectBlocked(answer, where, [431]);
    }
  });

  it('counts every header toward the limit, also beyond the 2000 that Node keeps in rawHeaders (~16 KB of short headers is blocked)', async () => {
    // 3,150 headers of 5 bytes on the wire ("a:b\r\n"): about 15.8 KB in all, under Node's 16 KiB
    // parser limit, over the guard's 15 KB. Node keeps only the first 2000 (maxHeadersCount).
    const headers = Array.from({ length: 3_150 }, () => 'a:b\r\n').join('');
    const raw = `GET /${P}/stores HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n${headers}\r\n`;
    expect(Buffer.byteLength(raw)).toBeGreaterThan(15 * 1024 + 300);
    expect(Buffer.byteLength(raw)).toBeLessThan(16 * 1024);
    expectBlocked(await exchange(port, raw), 'many short headers', [431]);
  });

  it('blocks a body on GET, HEAD and DELETE (Content-Length or chunked) with a 4xx', async () => {
    const auth = `Authorization: Bearer ${token}\r\n`;
    const cases: Array<[string, string]> = [
      [
        'GET with Content-Length',
        `GET /${P}/stores HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
      ],
      [
        'GET chunked',
        `GET /${P}/stores HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
      ],
      [
        'DELETE with Content-Length',
        `DELETE /${P}/stores/key=none?version=1 HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
      ],
      [
        'DELETE chunked',
        `DELETE /${P}/stores/key=none?version=1 HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
      ],
    ];
    for (const [what, raw] of cases) expectBlocked(await exchange(port, raw), what, [400]);
    // HEAD answers carry no body: only the status can be checked.
    const head = await exchange(port, `HEAD /${P}/stores HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 2\r\nConnection: close\r\n\r\n{}`, 2_000);
    expect(head.status, head.headers).toBe(400);
    // Methods whose body has no meaning and that no route serves (RFC 9110: TRACE must not carry content).
    for (const method of ['TRACE', 'OPTIONS']) {
      const answer = await exchange(
        port,
        `${method} /${P}/stores HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
      );
      expectBlocked(answer, `${method} with a body`);
    }
    // Control: Content-Length: 0 is no body.
    const empty = await exchange(port, `GET /${P}/stores HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 0\r\nConnection: close\r\n\r\n`);
    expect(empty.status).toBe(200);
  });

  it('blocks an Upgrade header (websocket, h2c) with 400 in the error shape, on resource, GraphQL and OAuth routes', async () => {
    const auth = `Authorization: Bearer ${token}\r\n`;
    for (const [path, method] of [
      [`/${P}/stores`, 'GET'],
      [`/${P}/graphql`, 'GET'],
      ['/oauth/token', 'POST'],
    ] as const) {
      for (const upgrade of [
        'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n',
        'Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n',
        'Upgrade: websocket\r\n',
      ]) {
        const answer = await exchange(port, `${method} ${path} HTTP/1.1\r\nHost: x\r\n${auth}${upgrade}Content-Length: 0\r\n\r\n`);
        expectBlocked(answer, `${method} ${path} ${upgrade.split('\r\n')[1] ?? upgrade}`, [400]);
      }
    }
  });
});
