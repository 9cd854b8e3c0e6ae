/**
 * `herald serve` on SIGTERM (docs/operations.md, "Stop"): it stops accepting, finishes the request
 * in flight and answers it `Connection: close`, closes idle keep-alive connections at once, stops
 * the in-process delivery worker, and exits 0 — within HERALD_SHUTDOWN_TIMEOUT_MS whatever its
 * clients do, after which it drops the connections left. Otherwise a container is SIGKILLed at its
 * stop timeout and the worker never releases its leases.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { herald, killIfRunning, type HeraldProcess } from '../support/processes.js';

/** Short, so that the case whose client never finishes takes seconds, not the default 8. */
const SHUTDOWN_TIMEOUT_MS = 1_500;
/** Well past the deadline and its forced close, and below Docker's 10 s stop timeout. */
const EXIT_WITHIN_MS = 6_000;

let gateway: HeraldProcess | undefined;
afterEach(() => killIfRunning(gateway));

async function startGateway(): Promise<number> {
  gateway = herald(['serve'], { DATABASE_URL: 'pglite://memory', PORT: '0', HERALD_SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) });
  await gateway.waitFor('herald gateway listening');
  const line = gateway
    .stdout()
    .split('\n')
    .find((entry) => entry.includes('herald gateway listening'))!;
  return Number(new URL((JSON.parse(line) as { address: string }).address).port);
}

interface Client {
  socket: net.Socket;
  received: () => string;
  /** Resolves when the server has closed the connection. */
  closed: Promise<void>;
  /** Resolves when `received()` contains `text`. */
  until(text: string): Promise<void>;
}

async function connect(port: number): Promise<Client> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((done) => socket.once('connect', done));
  let received = '';
  const waiters: { text: string; done: () => void }[] = [];
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString();
    for (const waiter of waiters) if (received.includes(waiter.text)) waiter.done();
  });
  socket.on('error', () => undefined);
  const closed = new Promise<void>((done) => socket.once('close', () => done()));
  return {
    socket,
    received: () => received,
    closed,
    until: (text) =>
      new Promise((done) => {
        if (received.includes(text)) done();
        else waiters.push({ text, done });
      }),
  };
}

const BODY = 'grant_type=client_credentials';

/**
 * A token request whose body is only partly sent. `Expect: 100-continue` makes the server answer
 * "100 Continue" once it has dispatched the request, so the test knows the request is in flight.
 */
async function partialRequest(port: number): Promise<Client & { finish(): void }> {
  const client = await connect(port);
  client.socket.write(
    'POST /oauth/token HTTP/1.1\r\nHost: herald\r\nContent-Type: application/x-www-form-urlencoded\r\n' +
      `Expect: 100-continue\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY.slice(0, 5)}`,
  );
  await client.until('100 Continue');
  return { ...client, finish: () => client.socket.write(BODY.slice(5)) };
}

describe('herald serve: SIGTERM', () => {
  it('finishes the request in flight with Connection: close, closes idle connections at once and exits 0', { timeout: 60_000 }, async () => {
    const port = await startGateway();
    // An idle keep-alive connection, as a client's connection pool keeps one.
    const idle = await connect(port);
    idle.socket.write('GET /healthz HTTP/1.1\r\nHost: herald\r\n\r\n');
    await idle.until('\r\n\r\n');
    expect(idle.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(idle.received().toLowerCase()).toContain('connection: keep-alive');
    const busy = await partialRequest(port);

    gateway!.child.kill('SIGTERM');
    // The idle connection is closed before the request in flight is answered.
    await idle.closed;
    busy.finish();
    await busy.closed;
    const exit = await gateway!.exitWithin(EXIT_WITHIN_MS);

    const response = busy.received().replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');
    expect(response).toMatch(/^HTTP\/1\.1 401 /);
    expect(response.toLowerCase()).toContain('connection: close');
    expect(exit).toEqual([0, null]);
    expect(gateway!.stdout()).toContain('delivery worker stopped');
    expect(gateway!.stdout()).not.toContain('shutdown deadline reached');
  });

  it('drops a client that never finishes its request at the deadline and exits 0', { timeout: 60_000 }, async () => {
    const port = await startGateway();
    const stalled = await partialRequest(port);

    gateway!.child.kill('SIGTERM');
    const exit = await gateway!.exitWithin(EXIT_WITHIN_MS);
    await stalled.closed;

    expect(exit).toEqual([0, null]);
    expect(gateway!.stdout()).toContain('shutdown deadline reached');
    expect(gateway!.stdout()).toContain('delivery worker stopped');
  });
});
