import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

/** A raw connection whose bytes are collected, so a request can be sent in parts. */
function openSocket(port: number): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = connect(port, '127.0.0.1');
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    socket.on('data', (data: Buffer) => (text += data.toString('utf8')));
    socket.once('connect', () => resolve({ socket, received: () => text, closed }));
    socket.once('error', reject);
  });
}

describe('a request that arrives while the gateway closes', () => {
  let gateway: TestGateway;
  let port: number;
  beforeAll(async () => {
    gateway = await startTestGateway();
    await gateway.app.listen({ port: 0, host: '127.0.0.1' });
    port = (gateway.app.server.address() as { port: number }).port;
  });
  afterAll(() => gateway.close());

  it('is answered 503 in the error shape, with Connection: close', async () => {
    // Its request line is sent before the close and its headers after: the request is parsed
    // while the gateway is closing, on a connection that was busy (so not closed as idle).
    const late = await openSocket(port);
    late.socket.write('GET /healthz HTTP/1.1\r\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closing = gateway.app.close();
    late.socket.write('Host: localhost\r\n\r\n');
    await late.closed;
    await closing;

    const [head = '', body = ''] = late.received().split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 503 /);
    expect(head.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(body)).toMatchObject({ statusCode: 503, errors: [{ code: 'ServiceUnavailable' }] });
  });
});
