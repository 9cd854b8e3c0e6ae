import type { OutboxCommits } from '@herald/store';
import type { ListeningOutboxSignal } from './pg-listen.js';
import type { OutboxSignal } from './worker.js';

/**
 * What wakes the router: this process's own commits (the database's `outboxCommits`, heard at once,
 * and the only signal PGlite has) and, on PostgreSQL, LISTEN for the commits of other processes.
 * Pausing stops LISTEN only: a local signal costs a function call, not a backend's wake-up.
 */
export function outboxSignalOf(local: OutboxCommits | undefined, listening: ListeningOutboxSignal | undefined): OutboxSignal | undefined {
  if (local === undefined) return listening;
  if (listening === undefined) return { subscribe: (listener) => local.subscribe(listener) };
  return {
    subscribe(listener) {
      const unsubscribeLocal = local.subscribe(listener);
      const unsubscribeListening = listening.subscribe(listener);
      return () => {
        unsubscribeLocal();
        unsubscribeListening();
      };
    },
    pause: async () => listening.pause?.(),
    resume: async () => listening.resume?.(),
  };
}
