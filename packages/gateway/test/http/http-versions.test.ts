/**
 * §8 "Also blocked: … an unknown HTTP version", over a real socket (inject bypasses Node's parser,
 * which takes request lines such as `HTTP/2.0` and `HTTP/0.9`); and CONNECT, which Node hands to
 * the server's `connect` listeners instead of Fastify, answered in the error shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestGateway, tokenFor, type TestGateway } from '../support/gateway.js';
import { exchange as exchangeChunks } from '../support/raw-socket.js';

const P = 'http-versions';

/** One raw request on a fresh connection; `text` is the whole answer. */
async function exchange(port: number, raw: string): Promise<{ status: number; body: string; text: string }> {
  const answer = await exchangeChunks(port, [raw], { timeoutMs: 3_000 });
  return { status: answer.status, body: answer.body, text: `${answer.headers}\r\n\r\n${answer.body}` };
}

function isErrorShape(body: string, status: number): boolean {
  try {
    const parsed = JSON.parse(body) as { statusCode?: unknown; errors?: Array<{ code?: unknown }> };
    return parsed.statusCode === status && Array.isArray(parsed.errors) && typeof parsed.errors[0]?.code === 'string';
  } catch {
    return false;
  }
}

describe('HTTP versions and methods over a real socket', () => {
  let gateway: TestGateway;
  let token: string;
  let port: number;
  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    token = await tokenFor(gateway, P, ['manage_project']);
    await gateway.app.listen({ port: 0, host: '127.0.0.1' });
    port = (gateway.app.server.address() as { port: number }).port;
  });
  afterAll(() => gateway.close());

  it('serves HTTP/1.1 and HTTP/1.0 (control)', async () => {
    for (const version of ['HTTP/1.1', 'HTTP/1.0']) {
      const answer = await exchange(
        port,
        `GET /${P}/stores ${version}\r\nHost: x\r\nAuthorization: ${bearer(token).authorization}\r\nConnection: close\r\n\r\n`,
      );
      expect(answer.status, version).toBe(200);
    }
  });

  it.each(['HTTP/2.0', 'HTTP/0.9', 'HTTP/1.2', 'HTTP/3.7', 'HTTP/9.9'])(
    'blocks a request line with the version %s with a 400 in the error shape',
    async (version) => {
      const answer = await exchange(
        port,
        `GET /${P}/stores ${version}\r\nHost: x\r\nAuthorization: ${bearer(token).authorization}\r\nConnection: close\r\n\r\n`,
      );
      expect(answer.status, answer.text.slice(0, 200)).toBe(400);
      expect(isErrorShape(answer.body, answer.status), answer.body).toBe(true);
    },
  );

  it('answers a CONNECT request with a 4xx in the error shape instead of dropping the connection', async () => {
    const answer = await exchange(port, `CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\nAuthorization: ${bearer(token).authorization}\r\n\r\n`);
    expect(answer.status, `answer: ${JSON.stringify(answer.text)}`).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(isErrorShape(answer.body, answer.status), answer.body).toBe(true);
    expect(answer.text).toMatch(/\r\nx-correlation-id: [A-Za-z0-9_-]{8,256}\r\n/i);
  });

  it('answers malformed HTTP (Node refuses it before Fastify) with 400 in the error shape and a correlation id', async () => {
    const answer = await exchange(port, 'GET / HTTP/1.1\r\nHost x\r\n\r\n');
    expect(answer.status, answer.text).toBe(400);
    expect(isErrorShape(answer.body, answer.status), answer.body).toBe(true);
    expect(answer.text).toMatch(/\r\nx-correlation-id: herald-[0-9a-f-]{36}\r\n/i);
  });
});
