import { OUTBOX_CHANNEL } from '@herald/store';
import type { Logger } from 'pino';
import type { OutboxSignal } from './worker.js';

/** The channel on which a writer notifies after committing outbox rows (store: outbox/commit-bell.ts). */
export { OUTBOX_CHANNEL };

/**
 * Connecting, and each LISTEN or UNLISTEN (instant on a server that answers). A connection whose
 * statement gets no answer within it is treated as lost: the signal reconnects, and the worker's
 * fallback poll covers the gap. Connection-string parameters (`query_timeout`) take precedence.
 */
const LISTEN_TIMEOUT_MS = 10_000;

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
  /** Gives up the current connection (a statement on it got no answer) and reconnects. */
  let dropCurrent: ((error: unknown) => void) | undefined;

  async function connect(): Promise<void> {
    const next = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: LISTEN_TIMEOUT_MS,
      query_timeout: LISTEN_TIMEOUT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: LISTEN_TIMEOUT_MS,
    });
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
    try {
      await next.connect();
      await next.query(`LISTEN ${OUTBOX_CHANNEL}`);
    } catch (error) {
      // Not lost (never had): the caller reports it and schedules the next attempt.
      lost = true;
      next.end().catch(() => undefined);
      throw error;
    }
    paused = false;
    if (closed) {
      await next.end();
      return;
    }
    client = next;
    dropCurrent = onLost;
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
      // A failure here is a lost connection: its handler reconnects (and listens again); a
      // statement without an answer leaves the connection open, so it is given up here.
      await client.query(`UNLISTEN ${OUTBOX_CHANNEL}`).catch((error: unknown) => dropCurrent?.(error));
    },
    async resume() {
      if (!paused || client === undefined) return;
      paused = false;
      // On failure the reconnect listens again and wakes every listener.
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`).catch((error: unknown) => dropCurrent?.(error));
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
