/**
 * Health and readiness while PostgreSQL stops answering (a hung server or a network partition:
 * connections stay open, nothing comes back). docs/operations.md, "Health endpoints": the gateway's
 * `/readyz` answers 503 when the database does not answer within 2 s; the worker's `/healthz`
 * answers 503 when a routing or claiming round trip has been in flight longer than
 * HERALD_DELIVERY_HEALTH_TIMEOUT_MS (10 s), so an orchestrator does not see a healthy worker that
 * delivers nothing.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createIsolatedDatabase, postgresAvailable, startPostgres, type RunningService } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { herald, heraldDelivery, killIfRunning, type HeraldProcess } from '../support/processes.js';

/** A TCP proxy to PostgreSQL that can be frozen: open connections stay open, nothing is forwarded. */
async function startFreezableProxy(target: { host: string; port: number }) {
  let frozen = false;
  const sockets = new Set<net.Socket>();
  const pairs: [net.Socket, net.Socket][] = [];
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('error', () => undefined);
    if (frozen) return; // accepted, never connected upstream
    const upstream = net.connect(target.port, target.host);
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
    pairs.push([client, upstream]);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    port: (server.address() as AddressInfo).port,
    freeze() {
      frozen = true;
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((done) => server.close(done));
    },
  };
}

const serverUrl = process.env.DATABASE_URL?.startsWith('postgres') === true ? process.env.DATABASE_URL : undefined;
const canRun = serverUrl !== undefined || postgresAvailable();

let cluster: RunningService | undefined;
let isolated: { url: string; drop(): Promise<void> } | undefined;
const processes: HeraldProcess[] = [];
const proxies: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  if (!canRun) return;
  cluster = serverUrl === undefined ? await startPostgres() : undefined;
  isolated = await createIsolatedDatabase(serverUrl ?? cluster!.url);
});

afterAll(async () => {
  for (const process of processes) killIfRunning(process);
  await Promise.all(processes.map((process) => process.exited));
  for (const proxy of proxies) await proxy.close();
  await isolated?.drop();
  await cluster?.stop();
});

/** The database URL, through a new freezable proxy. */
async function proxiedUrl() {
  const url = new URL(isolated!.url);
  const proxy = await startFreezableProxy({ host: url.hostname, port: Number(url.port) });
  proxies.push(proxy);
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  return { url: url.toString(), proxy };
}

/** GET with a client-side timeout: the status, or 'no answer'. */
async function probe(url: string, timeoutMs = 2_000): Promise<number | 'no answer'> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    return response.status;
  } catch {
    return 'no answer';
  }
}

/** Polls until `probe` answers `expected` or `ms` pass; answers the last result. */
async function pollFor(url: string, expected: number, ms: number): Promise<number | 'no answer'> {
  const deadline = Date.now() + ms;
  let last: number | 'no answer' = 'no answer';
  while (Date.now() < deadline) {
    last = await probe(url);
    if (last === expected) return last;
    await new Promise((done) => setTimeout(done, 250));
  }
  return last;
}

describe.runIf(canRun)('health endpoints when PostgreSQL stops answering', () => {
  it('herald-delivery /healthz turns 503', { timeout: 90_000 }, async () => {
    const { url, proxy } = await proxiedUrl();
    const worker = heraldDelivery({ DATABASE_URL: url, PORT: '0', HERALD_DELIVERY_HOST: '127.0.0.1' });
    processes.push(worker);
    await worker.waitFor('listening for /metrics and /healthz');
    const line = worker
      .stdout()
      .split('\n')
      .find((entry) => entry.includes('listening for /metrics'))!;
    const health = `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}/healthz`;
    expect(await probe(health)).toBe(200);

    proxy.freeze();
    // The sender claims every 100 ms: its claim is stuck for the health timeout (10 s), then 503.
    expect(await pollFor(health, 503, 15_000)).toBe(503);
  });

  it('herald serve /readyz answers 503', { timeout: 90_000 }, async () => {
    const { url, proxy } = await proxiedUrl();
    const gateway = herald(['serve'], { DATABASE_URL: url, PORT: '0', HERALD_DELIVERY: 'off' });
    processes.push(gateway);
    await gateway.waitFor('herald gateway listening');
    const line = gateway
      .stdout()
      .split('\n')
      .find((entry) => entry.includes('herald gateway listening'))!;
    const ready = `${(JSON.parse(line) as { address: string }).address}/readyz`;
    expect(await probe(ready)).toBe(200);

    proxy.freeze();
    // Each probe gets its answer within the 2 s bound: 503, never a probe timeout.
    expect(await probe(ready, 4_000)).toBe(503);
    expect(await probe(ready, 4_000)).toBe(503);
  });
});
