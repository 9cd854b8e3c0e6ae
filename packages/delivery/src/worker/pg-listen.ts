import type { Logger } from 'pino';
import type { OutboxSignal } from './worker.js';

/** The channel the `outbox_notify` trigger (migration 003) notifies on every outbox insert. */
export const OUTBOX_CHANNEL = 'herald_outbox';

export interface ListeningOutboxSignal extends OutboxSignal {
  close(): Promise<void>;
}

/**
 * LISTEN on PostgreSQL so the router wakes when a write commits instead of polling (the p99
 * latency target needs either this or very short polls). One dedicated connection; it reconnects
 * with a pause after errors, and the worker's fallback poll covers the gap.
 */
export async function listenForOutbox(url: string, logger: Logger, reconnectMs = 1_000): Promise<ListeningOutboxSignal> {
  const { default: pg } = await import('pg');
  const listeners = new Set<() => void>();
  let client: InstanceType<typeof pg.Client> | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const notifyAll = (): void => {
    for (const listener of listeners) listener();
  };
  /** Whether the consumer wants notifications (`pause`/`resume`); a reconnect listens regardless. */
  let paused = false;

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', notifyAll);
    let lost = false;
    const onLost = (error?: unknown): void => {
      if (lost || closed) return;
      lost = true;
      logger.warn({ err: error }, 'outbox LISTEN connection lost; reconnecting');
      next.end().catch(() => undefined);
      if (client === next) client = undefined;
      schedule();
    };
    next.on('error', onLost);
    next.on('end', () => onLost());
    await next.connect();
    await next.query(`LISTEN ${OUTBOX_CHANNEL}`);
    paused = false;
    if (closed) {
      await next.end();
      return;
    }
    client = next;
    // Rows committed while we were not listening are found by this wake-up.
    notifyAll();
  }

  function schedule(): void {
    if (closed || retry !== undefined) return;
    retry = setTimeout(() => {
      retry = undefined;
      connect().catch((error: unknown) => {
        logger.warn({ err: error }, 'outbox LISTEN reconnect failed');
        schedule();
      });
    }, reconnectMs);
  }

  await connect();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async pause() {
      if (paused || client === undefined) return;
      paused = true;
      // A failure here is a lost connection: its handler reconnects (and listens again).
      await client.query(`UNLISTEN ${OUTBOX_CHANNEL}`).catch(() => undefined);
    },
    async resume() {
      if (!paused || client === undefined) return;
      paused = false;
      // On failure the reconnect listens again and wakes every listener.
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`).catch(() => undefined);
    },
    async close() {
      closed = true;
      if (retry !== undefined) clearTimeout(retry);
      listeners.clear();
      await client?.end().catch(() => undefined);
      client = undefined;
    },
  };
}
