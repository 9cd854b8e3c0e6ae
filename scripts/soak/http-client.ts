/**
 * A minimal HTTP/1.1 keep-alive client for the soak's writer: one request per connection at a
 * time, written in one `write`, the response parsed just enough (status, Content-Length or chunked
 * body, Connection: close). The load generator shares the machine with what it measures, and
 * node:http's client (agent, ClientRequest, streams, header objects) cost it about twice the CPU
 * per request. Not a general client: no redirects, no 1xx, no pipelining.
 */
import { connect, type Socket } from 'node:net';

export interface Reply {
  /** 0 when the outcome is unknown: connection error, timeout, malformed response. */
  status: number;
  body: string;
}

const HEADER_END = Buffer.from('\r\n\r\n');

interface Pending {
  resolve: (reply: Reply) => void;
  timer: NodeJS.Timeout;
}

class Connection {
  private buffer: Buffer = Buffer.alloc(0);
  private pending: Pending | undefined;
  private closed = false;
  /** The head of the response being read, once complete. */
  private head: { status: number; length: number | undefined; chunked: boolean; close: boolean; bodyStart: number } | undefined;

  constructor(
    private readonly socket: Socket,
    private readonly onIdle: (connection: Connection) => void,
    private readonly onClosed: (connection: Connection) => void,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    socket.on('error', () => this.close());
    socket.on('close', () => this.close());
  }

  get usable(): boolean {
    return !this.closed;
  }

  send(request: string, timeoutMs: number): Promise<Reply> {
    if (this.closed) return Promise.resolve({ status: 0, body: '' });
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.fail(), timeoutMs);
      this.pending = { resolve, timer };
      this.socket.write(request);
    });
  }

  destroy(): void {
    this.socket.destroy();
  }

  private read(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    if (this.head === undefined) {
      const end = this.buffer.indexOf(HEADER_END);
      if (end < 0) return;
      const lines = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? Number.NaN);
      if (!Number.isInteger(status)) return this.fail();
      let length: number | undefined;
      let chunked = false;
      let close = false;
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line
          .slice(colon + 1)
          .trim()
          .toLowerCase();
        if (name === 'content-length') length = Number(value);
        else if (name === 'transfer-encoding') chunked = value.includes('chunked');
        else if (name === 'connection') close = value === 'close';
      }
      this.head = { status, length, chunked, close, bodyStart: end + HEADER_END.length };
    }
    const { status, length, chunked, close, bodyStart } = this.head;
    let body: string | undefined;
    let consumed = 0;
    if (chunked) {
      const decoded = decodeChunked(this.buffer, bodyStart);
      if (decoded === undefined) return;
      body = decoded.body;
      consumed = decoded.end;
    } else {
      const size = length ?? 0;
      if (this.buffer.length < bodyStart + size) return;
      body = this.buffer.toString('utf8', bodyStart, bodyStart + size);
      consumed = bodyStart + size;
    }
    this.buffer = this.buffer.subarray(consumed);
    this.head = undefined;
    // A response nobody waits for (the server gave up on an idle connection): out of step, close.
    const answered = this.pending !== undefined;
    this.settle({ status, body });
    if (close || !answered || this.buffer.length > 0) this.close();
    else if (!this.closed) this.onIdle(this);
  }

  /** Answers the request in flight, if any. */
  private settle(reply: Reply): void {
    const pending = this.pending;
    this.pending = undefined;
    if (pending === undefined) return;
    clearTimeout(pending.timer);
    pending.resolve(reply);
  }

  private fail(): void {
    this.close();
  }

  private close(): void {
    // Whatever was in flight has an unknown outcome (it may have committed).
    this.settle({ status: 0, body: '' });
    if (this.closed) return;
    this.closed = true;
    this.socket.destroy();
    this.onClosed(this);
  }
}

/** A chunked body from `start`, or undefined while incomplete. */
function decodeChunked(buffer: Buffer, start: number): { body: string; end: number } | undefined {
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = Number.parseInt(buffer.toString('latin1', at, lineEnd), 16);
    if (!Number.isInteger(size)) return undefined;
    const dataStart = lineEnd + 2;
    if (size === 0) {
      // No trailers expected: the terminating CRLF follows at once.
      if (buffer.length < dataStart + 2) return undefined;
      return { body: Buffer.concat(parts).toString('utf8'), end: dataStart + 2 };
    }
    if (buffer.length < dataStart + size + 2) return undefined;
    parts.push(buffer.subarray(dataStart, dataStart + size));
    at = dataStart + size + 2;
  }
}

export class KeepAliveClient {
  private readonly idle: Connection[] = [];
  private readonly all = new Set<Connection>();
  private readonly hostHeader: string;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly timeoutMs = 30_000,
  ) {
    this.hostHeader = `${host}:${port}`;
  }

  async request(method: string, path: string, headers: Readonly<Record<string, string>>, body?: string): Promise<Reply> {
    let head = `${method} ${path} HTTP/1.1\r\nhost: ${this.hostHeader}\r\n`;
    for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
    const request = body === undefined ? `${head}\r\n` : `${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    let connection = this.idle.pop();
    while (connection !== undefined && !connection.usable) connection = this.idle.pop();
    if (connection === undefined) {
      try {
        connection = await this.open();
      } catch {
        return { status: 0, body: '' };
      }
    }
    return connection.send(request, this.timeoutMs);
  }

  close(): void {
    for (const connection of this.all) connection.destroy();
  }

  private open(): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: this.host, port: this.port });
      const connection = new Connection(
        socket,
        (idle) => this.idle.push(idle),
        (closed) => this.all.delete(closed),
      );
      this.all.add(connection);
      socket.once('connect', () => resolve(connection));
      socket.once('error', reject);
    });
  }
}
