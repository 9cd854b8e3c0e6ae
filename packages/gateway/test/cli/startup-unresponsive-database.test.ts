/**
 * Starting against a PostgreSQL that accepts TCP connections but never answers (a hung server, a
 * black-holed address behind a load balancer, a proxy whose backend is gone). The process gives up
 * after the connection timeout (10 s, or DATABASE_URL's `connect_timeout`) with a message naming
 * the server, never the password, and a non-zero exit code, so that the orchestrator's restart loop
 * and its logs show the cause (docs/operations.md, "Start").
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { herald, heraldDelivery, killIfRunning, type HeraldProcess } from '../support/processes.js';

/**
 * The default connection timeout (10 s), and the start-up around it: loading the modules alone
 * takes 10 s and more on a loaded two-core CI machine. A process that hangs never exits at all.
 */
const STARTUP_DEADLINE_MS = 45_000;
const PASSWORD = 'never-in-the-logs';

let server: net.Server;
let address: string;
const sockets = new Set<net.Socket>();
const processes: HeraldProcess[] = [];

beforeAll(async () => {
  // Accepts connections and never answers: the PostgreSQL start-up message gets no reply.
  server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const process of processes) killIfRunning(process);
  for (const socket of sockets) socket.destroy();
  await new Promise((done) => server.close(done));
});

describe.concurrent('start-up against a database that does not answer', () => {
  it('herald serve exits 1 after the connection timeout, naming the server', { timeout: 60_000 }, async () => {
    const gateway = herald(['serve'], { DATABASE_URL: `postgres://herald:${PASSWORD}@${address}/herald`, PORT: '0' });
    processes.push(gateway);
    const exit = await gateway.exitWithin(STARTUP_DEADLINE_MS);
    const output = gateway.stdout() + gateway.stderr();
    expect(exit, `still starting after ${STARTUP_DEADLINE_MS} ms, output: ${JSON.stringify(output)}`).toEqual([1, null]);
    expect(gateway.stderr()).toContain(`PostgreSQL at ${address}/herald did not answer within 10 s`);
    expect(output).not.toContain(PASSWORD);
  });

  it('herald-delivery logs where it connects, and exits 1 after connect_timeout', { timeout: 60_000 }, async () => {
    const worker = heraldDelivery({
      DATABASE_URL: `postgres://herald:${PASSWORD}@${address}/herald?connect_timeout=2`,
      PORT: '0',
      HERALD_DELIVERY_HOST: '127.0.0.1',
    });
    processes.push(worker);
    const exit = await worker.exitWithin(STARTUP_DEADLINE_MS);
    const output = worker.stdout() + worker.stderr();
    expect(exit, `still starting after ${STARTUP_DEADLINE_MS} ms, output: ${JSON.stringify(output)}`).toEqual([1, null]);
    const opening = worker
      .stdout()
      .split('\n')
      .find((line) => line.includes('opening the database'));
    expect(JSON.parse(opening ?? '{}')).toMatchObject({ database: `postgres ${address}/herald` });
    expect(worker.stderr()).toMatch(new RegExp(`^herald-delivery: PostgreSQL at ${address}/herald did not answer within 2 s`));
    expect(output).not.toContain(PASSWORD);
  });
});
