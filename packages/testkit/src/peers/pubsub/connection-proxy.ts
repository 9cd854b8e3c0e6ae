import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

/**
 * A loopback TCP relay in front of the gRPC server. grpc-js gives a handler no way to cut the
 * connection its call arrived on, but a "dropped connection" fault needs exactly that: the relay
 * owns both sockets of every connection and can destroy the one a call came through.
 */
export interface ConnectionProxy {
  readonly port: number;
  /**
   * Destroys the client connection whose upstream socket has `upstreamPeer` ("127.0.0.1:PORT", as
   * grpc-js `call.getPeer()` reports it); destroys every connection when it cannot tell which.
   */
  drop(upstreamPeer: string): void;
  close(): Promise<void>;
}

interface Relay {
  readonly client: Socket;
  readonly upstream: Socket;
}

export async function startConnectionProxy(targetPort: number, listenPort = 0): Promise<ConnectionProxy> {
  /** Keyed by the local port of the upstream socket, which is the peer port the server sees. */
  const relays = new Map<number, Relay>();
  const unpaired = new Set<Socket>();

  const server = createServer((client) => {
    unpaired.add(client);
    // Buffer what the client sends until the upstream is connected, then pipe both ways.
    client.pause();
    const upstream = connect(targetPort, '127.0.0.1', () => {
      unpaired.delete(client);
      const key = upstream.localPort ?? -1;
      relays.set(key, { client, upstream });
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
      const forget = () => relays.delete(key);
      upstream.once('close', forget);
    });
    const destroyBoth = () => {
      unpaired.delete(client);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', destroyBoth).on('close', destroyBoth);
    upstream.on('error', destroyBoth).on('close', destroyBoth);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listenPort, '127.0.0.1', () => resolve());
  });

  const destroyAll = () => {
    for (const { client, upstream } of relays.values()) {
      client.destroy();
      upstream.destroy();
    }
    for (const client of unpaired) client.destroy();
  };

  return {
    port: (server.address() as AddressInfo).port,
    drop(upstreamPeer) {
      const relay = relays.get(Number(upstreamPeer.slice(upstreamPeer.lastIndexOf(':') + 1)));
      if (relay === undefined) return destroyAll();
      relay.client.destroy();
      relay.upstream.destroy();
    },
    async close() {
      destroyAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
