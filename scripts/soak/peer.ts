/**
 * The SQS peer of the soak run, in its own process: fauxqs (in-memory queues) on an inner port,
 * and in front of it a TCP proxy on the port the delivery workers are given. `down` (an IPC message
 * from the orchestrator) closes the proxy's listener and cuts its connections, so the workers get
 * ECONNREFUSED while the queue and what it holds stay intact for the consumer (which talks to the
 * inner port); `up` listens again on the same port.
 *
 *   node --import tsx scripts/soak/peer.ts <inner port> <proxy port>
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { startFauxqs } from 'fauxqs';

const innerPort = Number(process.argv[2]);
const proxyPort = Number(process.argv[3]);
const fauxqs = await startFauxqs({ port: innerPort, logger: false, defaultRegion: 'us-east-1' });
const queueUrl = fauxqs.createQueue('soak', { attributes: { MaximumMessageSize: '262144' } }).queueUrl;

const sockets = new Set<Socket>();
let proxy: Server | undefined;

function listen(): Promise<void> {
  // Bytes are piped as they come (no parsing); Nagle off on both legs, as the HTTP peers have it,
  // so a forwarded request or reply is not held back waiting for an ACK.
  const server = createServer({ noDelay: true }, (client) => {
    const upstream = createConnection({ port: innerPort, host: '127.0.0.1', noDelay: true });
    sockets.add(client);
    sockets.add(upstream);
    const drop = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  proxy = server;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(proxyPort, '127.0.0.1', () => resolve());
  });
}

async function down(): Promise<void> {
  const server = proxy;
  proxy = undefined;
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  if (server) await new Promise((resolve) => server.close(resolve));
}

process.on('message', (message: { cmd: string }) => {
  const done = (ok: boolean, error?: unknown): void => {
    process.send?.({ cmd: message.cmd, ok, error: error === undefined ? undefined : String(error) });
  };
  const action = message.cmd === 'down' ? down() : message.cmd === 'up' ? retryListen() : Promise.resolve();
  action.then(() => done(true), (error: unknown) => done(false, error));
});

/** The port can stay in TIME_WAIT-free limbo for a moment after close: retry briefly. */
async function retryListen(): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await listen();
      return;
    } catch (error) {
      if (attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

await retryListen();
process.send?.({ cmd: 'ready', queueUrl });
process.on('SIGTERM', () => {
  void down()
    .then(() => fauxqs.stop())
    .finally(() => process.exit(0));
});
