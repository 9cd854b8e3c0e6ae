/** The PostgreSQL channel on which a committed outbox write wakes the delivery workers that LISTEN. */
export const OUTBOX_CHANNEL = 'herald_outbox';

/**
 * Sent after the writes' commit, in a transaction of its own that does not wait for its WAL flush:
 * losing it in a crash loses a wake-up, never an event (workers poll as a fallback).
 */
export const NOTIFY_OUTBOX_SQL = `BEGIN; SET LOCAL synchronous_commit TO off; SELECT pg_notify('${OUTBOX_CHANNEL}', ''); COMMIT;`;

/** Tells listeners in this process that outbox rows were committed (`Database.outboxCommits`). */
export interface OutboxCommits {
  /** Calls `listener` after every commit that appended outbox rows; answers the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** Resolves once the notification of every earlier commit has reached PostgreSQL (tests, shutdown). */
  settled(): Promise<void>;
}

/**
 * Rings after each commit that appended outbox rows (issue 30): listeners in this process hear it
 * at once, and other processes through one NOTIFY per burst of commits, sent after them.
 *
 * This replaces an `AFTER INSERT` trigger that called pg_notify in the writing transaction:
 * PostgreSQL serialises the commits of notifying transactions under one lock, WAL flush included,
 * so concurrent durable writes could no longer share a flush (32 clients inserting: 170–220
 * commits/s with the trigger, 3,200–3,400 without, pgbench on this machine).
 */
export class OutboxBell implements OutboxCommits {
  private readonly listeners = new Set<() => void>();
  private sending: Promise<void> | undefined;
  private ringAgain = false;

  /** `notifyOthers` sends NOTIFY_OUTBOX_SQL (PostgreSQL); PGlite has no other process to tell. */
  constructor(private readonly notifyOthers?: () => Promise<void>) {}

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  ring(): void {
    for (const listener of this.listeners) listener();
    if (this.notifyOthers === undefined) return;
    // One NOTIFY in flight at a time: commits meanwhile are covered by one more after it, since
    // the one in flight may have been sent before they committed.
    if (this.sending !== undefined) {
      this.ringAgain = true;
      return;
    }
    this.sending = this.send(this.notifyOthers);
  }

  settled(): Promise<void> {
    return this.sending ?? Promise.resolve();
  }

  private async send(notify: () => Promise<void>): Promise<void> {
    do {
      this.ringAgain = false;
      // A failed NOTIFY (database unreachable) costs the listeners one poll interval of latency.
      await notify().catch(() => undefined);
    } while (this.ringAgain);
    this.sending = undefined;
  }
}
