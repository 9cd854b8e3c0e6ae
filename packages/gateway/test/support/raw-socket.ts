import { connect, type Socket } from 'node:net';

/** An HTTP answer as it came off a raw socket. */
export interface RawAnswer {
  status: number;
  headers: string;
  body: string;
  closed: boolean;
}

function parseAnswer(text: string, closed: boolean): RawAnswer {
  const [head = '', ...rest] = text.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
  return { status, headers: head, body: rest.join('\r\n\r\n'), closed };
}

/**
 * Writes `chunks` to a fresh connection (with `pauseMs` between them) and collects the answer
 * until the server closes the connection, a complete answer with Content-Length arrived, or
 * `timeoutMs` passed (then `status` is 0 unless something arrived).
 */
export function exchange(
  port: number,
  chunks: ReadonlyArray<string | Buffer>,
  options: { timeoutMs?: number; pauseMs?: number; keep?: Socket[] } = {},
): Promise<RawAnswer> {
  const timeoutMs = options.timeoutMs ?? 5_000;
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    options.keep?.push(socket);
    let received = Buffer.alloc(0);
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (options.keep === undefined) socket.destroy();
      resolve(parseAnswer(received.toString('utf8'), closed));
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('data', (data: Buffer) => {
      received = Buffer.concat([received, data]);
      const text = received.toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, split))?.[1];
      if (split >= 0 && length !== undefined && Buffer.byteLength(text.slice(split + 4)) >= Number(length)) finish(false);
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        if (socket.destroyed) return;
        socket.write(chunk);
        if (options.pauseMs !== undefined) await new Promise((r) => setTimeout(r, options.pauseMs));
      }
    });
  });
}
