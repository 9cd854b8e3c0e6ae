/**
 * A TCP proxy in front of a destination peer that the soak's fault scenarios switch between three
 * behaviours of a real network destination:
 *
 * - `forward`: bytes are piped as they come (no parsing) to the upstream port;
 * - `refuse`: the listener is closed and every connection cut (the senders get ECONNREFUSED);
 * - `blackhole`: connections are accepted and whatever is sent on them is read and never answered,
 *   including the connections already open (a host that hangs does not reset them). Only the sender's
 *   own timeout ends such a request, so the time from a request's first bytes to the sender closing
 *   the connection is recorded: it is the send timeout as seen from the destination.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export type ProxyMode = 'forward' | 'refuse' | 'blackhole';

export interface BlackholeStats {
  /** Connections that sent bytes while black-holed and that the sender then closed. */
  abandoned: number;
  /** For each of them: ms from its first unanswered bytes until the sender closed it. */
  waitedMs: number[];
  /** Black-holed connections still open (idle keep-alive ones, or senders still waiting). */
  open: number;
  /** Of those, the ones that sent bytes: ms each has waited so far (a sender that never gives up shows here). */
  waitingMs: number[];
  /** Connections accepted while black-holed. */
  accepted: number;
}

interface Held {
  /** When the first unanswered bytes arrived, undefined while the connection sent nothing. */
  since: number | undefined;
}

export class SwitchableProxy {
  private server: Server | undefined;
  private mode: ProxyMode = 'refuse';
  /** Forwarded connections: client socket → its upstream socket. */
  private readonly forwarded = new Map<Socket, Socket>();
  private readonly held = new Map<Socket, Held>();
  private readonly waitedMs: number[] = [];
  private accepted = 0;

  constructor(
    private readonly listenPort: number,
    private readonly upstreamPort: number,
  ) {}

  get current(): ProxyMode {
    return this.mode;
  }

  /**
   * Forwards new connections again. The black-holed ones are cut (reset, as a host that restarts
   * does), or with `keepHeld` left open and silent (as a connection whose packets were dropped
   * stays open at the sender: nothing tells it the peer lost it).
   */
  async forward(options: { keepHeld?: boolean } = {}): Promise<void> {
    this.mode = 'forward';
    if (options.keepHeld !== true) {
      for (const socket of this.held.keys()) socket.destroy();
      this.held.clear();
    }
    await this.listenWithRetry();
  }

  async refuse(): Promise<void> {
    this.mode = 'refuse';
    for (const [client, upstream] of this.forwarded) {
      client.destroy();
      upstream.destroy();
    }
    this.forwarded.clear();
    for (const socket of this.held.keys()) socket.destroy();
    this.held.clear();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise((resolve) => server.close(resolve));
  }

  /** Stops answering: open connections stay open but get nothing back, new ones are accepted. */
  async blackhole(): Promise<void> {
    this.mode = 'blackhole';
    for (const [client, upstream] of this.forwarded) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      // Its close must not cut the client, which now waits for an answer that never comes.
      upstream
        .removeAllListeners('close')
        .removeAllListeners('error')
        .on('error', () => undefined);
      upstream.destroy();
      this.hold(client);
    }
    this.forwarded.clear();
    await this.listenWithRetry();
  }

  stats(): BlackholeStats {
    const now = Date.now();
    const waitingMs = [...this.held.values()].flatMap((entry) => (entry.since === undefined ? [] : [now - entry.since]));
    return { abandoned: this.waitedMs.length, waitedMs: [...this.waitedMs], open: this.held.size, waitingMs, accepted: this.accepted };
  }

  async close(): Promise<void> {
    await this.refuse();
  }

  private accept(client: Socket): void {
    if (this.mode === 'blackhole') {
      this.accepted++;
      this.hold(client);
    } else this.pipe(client);
  }

  private pipe(client: Socket): void {
    // Nagle off on both legs, as the HTTP peers have it, so a forwarded request or reply is not
    // held back waiting for an ACK.
    const upstream = createConnection({ port: this.upstreamPort, host: '127.0.0.1', noDelay: true });
    this.forwarded.set(client, upstream);
    const drop = (): void => {
      client.destroy();
      upstream.destroy();
      if (this.forwarded.get(client) === upstream) this.forwarded.delete(client);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  }

  private hold(client: Socket): void {
    const entry: Held = { since: undefined };
    this.held.set(client, entry);
    client.removeAllListeners('close');
    client.removeAllListeners('error');
    client.on('data', () => {
      entry.since ??= Date.now();
    });
    client.on('error', () => client.destroy());
    client.on('close', () => {
      // Cut by `forward()` (no longer held) is not the sender giving up.
      if (!this.held.delete(client)) return;
      if (entry.since !== undefined) this.waitedMs.push(Date.now() - entry.since);
    });
    client.resume();
  }

  private listen(): Promise<void> {
    if (this.server !== undefined) return Promise.resolve();
    const server = createServer({ noDelay: true }, (client) => this.accept(client));
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.listenPort, '127.0.0.1', () => {
        this.server = server;
        resolve();
      });
    });
  }

  /** The port can stay unavailable for a moment after close: retry briefly. */
  private async listenWithRetry(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.listen();
        return;
      } catch (error) {
        if (attempt >= 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }
}
