/**
 * The soak's switchable proxy on real loopback sockets: forwards, refuses, and black-holes (accepts,
 * never answers, and measures how long the sender waited before giving up).
 */
import { once } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SwitchableProxy } from '../proxy.js';
import { freePort } from '../services.js';

let upstream: Server;
let upstreamPort: number;
let proxy: SwitchableProxy;
let proxyPort: number;
const clients: Socket[] = [];

/** Sends `text` on a new or given connection; resolves with the first answer, or undefined when the connection ends without one. */
function ask(text: string, socket = connect()): Promise<string | undefined> {
  return new Promise((resolve) => {
    socket.once('data', (chunk: Buffer) => resolve(chunk.toString()));
    socket.once('close', () => resolve(undefined));
    socket.once('error', () => resolve(undefined));
    socket.write(text);
  });
}

function connect(): Socket {
  const socket = createConnection({ port: proxyPort, host: '127.0.0.1' });
  socket.on('error', () => undefined);
  clients.push(socket);
  return socket;
}

beforeEach(async () => {
  // An echo server stands for the destination peer.
  upstream = createServer((socket) => socket.on('data', (chunk: Buffer) => socket.write(`echo ${chunk.toString()}`)));
  upstream.listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  upstreamPort = (upstream.address() as { port: number }).port;
  proxyPort = await freePort();
  proxy = new SwitchableProxy(proxyPort, upstreamPort);
  await proxy.forward();
});

afterEach(async () => {
  for (const socket of clients.splice(0)) socket.destroy();
  await proxy.close();
  upstream.close();
});

describe('SwitchableProxy', () => {
  it('forwards to the upstream port', async () => {
    expect(await ask('one')).toBe('echo one');
  });

  it('refuses connections while down, and forwards again once up', async () => {
    await proxy.refuse();
    const socket = connect();
    const [error] = (await once(socket, 'error')) as [NodeJS.ErrnoException];
    expect(error.code).toBe('ECONNREFUSED');
    await proxy.forward();
    expect(await ask('two')).toBe('echo two');
  });

  it('black hole: accepts new connections and never answers them, nor the open ones', async () => {
    const open = connect();
    expect(await ask('before', open)).toBe('echo before');
    await proxy.blackhole();
    let answered = false;
    const fresh = connect();
    fresh.on('data', () => (answered = true));
    open.on('data', () => (answered = true));
    await once(fresh, 'connect');
    fresh.write('lost');
    open.write('lost too');
    // Both connections stay open and silent: nothing arrives while the proxy is a black hole.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered).toBe(false);
    expect(fresh.destroyed || open.destroyed).toBe(false);
    const stats = proxy.stats();
    expect(stats).toMatchObject({ abandoned: 0, open: 2, accepted: 1 });
    expect(stats.waitingMs).toHaveLength(2);
    expect(Math.min(...stats.waitingMs)).toBeGreaterThanOrEqual(250);
  });

  it('black hole: measures how long a sender waited before it closed the connection', async () => {
    await proxy.blackhole();
    const socket = connect();
    await once(socket, 'connect');
    socket.write('request');
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.destroy(); // the sender's own timeout
    await waitUntil(() => proxy.stats().abandoned === 1);
    const stats = proxy.stats();
    expect(stats.open).toBe(0);
    expect(stats.waitedMs[0]).toBeGreaterThanOrEqual(150);
  });

  it('after a black hole, forwards again on new connections', async () => {
    await proxy.blackhole();
    const held = connect();
    await waitUntil(() => proxy.stats().open === 1); // accepted by the black hole
    const cut = once(held, 'close'); // as a restarted host resets it
    await proxy.forward();
    expect(await ask('three')).toBe('echo three');
    await cut;
  });

  it('after a black hole, can leave the hanging connections open and silent', async () => {
    await proxy.blackhole();
    const held = connect();
    held.write('waiting');
    await waitUntil(() => proxy.stats().waitingMs.length === 1);
    await proxy.forward({ keepHeld: true });
    expect(await ask('four')).toBe('echo four');
    expect(held.destroyed).toBe(false);
    expect(proxy.stats().waitingMs).toHaveLength(1);
  });
});

async function waitUntil(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
}
