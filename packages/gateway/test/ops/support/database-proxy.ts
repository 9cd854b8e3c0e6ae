import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay between one process and its PostgreSQL server, so that a test can take the database
 * away from that process alone (the network to it gone) and give it back, while other processes
 * keep theirs. `cut()` drops every relayed connection and refuses new ones (ECONNREFUSED), as a
 * stopped server or a lost route would; `restore()` listens again on the same port.
 */
export interface DatabaseProxy {
  /** `serverUrl` with its host and port replaced by the relay's. */
  url: string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startDatabaseProxy(serverUrl: string): Promise<DatabaseProxy> {
  const target = new URL(serverUrl);
  const sockets = new Set<Socket>();
  const relay = (client: Socket): void => {
    const upstream = createConnection({ host: target.hostname, port: Number(target.port || 5432) });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      // A cut connection errors on both sides; the process under test sees it as its own error.
      socket.on('error', () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  };
  let server: Server = await listen(createServer(relay), 0);
  const port = (server.address() as { port: number }).port;
  const url = new URL(serverUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  const stop = async (): Promise<void> => {
    const closed = new Promise<void>((done) => server.close(() => done()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return {
    url: url.toString(),
    cut: stop,
    async restore() {
      server = await listen(createServer(relay), port);
    },
    close: async () => (server.listening ? stop() : undefined),
  };
}

function listen(server: Server, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
