import { DocumentStore } from '@herald/store';
import { postgresAvailable, startPostgres, type RunningService } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenForOutbox, type ListeningOutboxSignal } from '../../src/worker/pg-listen.js';
import { createProject, ManualClock, openTestDatabase, silentLogger, type TestDatabase } from '../engine/support.js';

const serverUrl = process.env.DATABASE_URL?.startsWith('postgres') === true ? process.env.DATABASE_URL : undefined;
const canRun = serverUrl !== undefined || postgresAvailable();

describe('outbox LISTEN/NOTIFY on PostgreSQL', () => {
  let cluster: RunningService | undefined;
  let database: TestDatabase | undefined;
  let signal: ListeningOutboxSignal | undefined;

  beforeAll(async () => {
    if (!canRun) return;
    cluster = serverUrl === undefined ? await startPostgres() : undefined;
    database = await openTestDatabase(serverUrl ?? cluster!.url);
    signal = await listenForOutbox(database.url, silentLogger);
  });

  afterAll(async () => {
    await signal?.close();
    await database?.close();
    await cluster?.stop();
  });

  const title = canRun
    ? 'wakes listeners when a write commits to the outbox'
    : 'wakes listeners when a write commits (SKIPPED: no PostgreSQL — set DATABASE_URL or install initdb/pg_ctl)';
  it.runIf(canRun)(title, async () => {
    await createProject(database!.db, new ManualClock(), 'listen');
    const woken = new Promise<void>((resolve) => {
      const unsubscribe = signal!.subscribe(() => {
        unsubscribe();
        resolve();
      });
    });
    await new DocumentStore(database!.db).create({ projectKey: 'listen' }, 'store', {});
    await expect(woken).resolves.toBeUndefined();
  });

  const pauseTitle = canRun
    ? 'stops waking listeners while paused, and wakes them again after resume'
    : 'stops waking listeners while paused (SKIPPED: no PostgreSQL — set DATABASE_URL or install initdb/pg_ctl)';
  it.runIf(canRun)(pauseTitle, async () => {
    await createProject(database!.db, new ManualClock(), 'paused');
    const store = new DocumentStore(database!.db);
    let wakes = 0;
    const unsubscribe = signal!.subscribe(() => wakes++);
    try {
      await signal!.pause!();
      await store.create({ projectKey: 'paused' }, 'store', {});
      // The writer notifies after its commit, asynchronously: let that NOTIFY land before listening again.
      await database!.db.outboxCommits!.settled();
      await signal!.resume!();
      const woken = new Promise<void>((resolve) => {
        const stop = signal!.subscribe(() => {
          stop();
          resolve();
        });
      });
      await store.create({ projectKey: 'paused' }, 'store', {});
      await woken;
      // Notifications arrive in commit order on the one connection: had the first write woken
      // anyone, that wake would have come before this one.
      expect(wakes).toBe(1);
    } finally {
      unsubscribe();
    }
  });
});
