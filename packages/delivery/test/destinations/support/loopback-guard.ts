import diagnostics_channel from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

/**
 * Records the remote address of every TCP client socket the process connects (Node's
 * `net.client.socket` diagnostics channel: HTTP, HTTP/2 for gRPC and raw AMQP sockets all pass
 * through it), so a suite can assert that no traffic left loopback.
 */
export function watchOutboundConnections(): { addresses: Set<string>; stop(): void } {
  const addresses = new Set<string>();
  const onSocket = (message: unknown): void => {
    const socket = (message as { socket: Socket }).socket;
    socket.once('connect', () => addresses.add(socket.remoteAddress ?? 'unknown'));
    // A refused connection never connects; its error names the address that was tried.
    socket.once('error', (error: NodeJS.ErrnoException & { address?: string }) => {
      if (error.address !== undefined) addresses.add(error.address);
    });
  };
  diagnostics_channel.subscribe('net.client.socket', onSocket);
  return { addresses, stop: () => diagnostics_channel.unsubscribe('net.client.socket', onSocket) };
}

export function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}
