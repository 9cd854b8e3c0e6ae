import { DocumentStore } from '@herald/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenForOutbox, type ListeningOutboxSignal } from '../../src/worker/pg-listen.js';
import { createProject, ManualClock, openTestDatabase, silentLogger, type TestDatabase } from '../engine/support.js';

const serverUrl = process.env.DATABASE_URL?.startsWith('postgres') === true ? process.env.DATABASE_URL : undefined;

describe.runIf(serverUrl !== undefined)('outbox LISTEN/NOTIFY on PostgreSQL', () => {
  let database: TestDatabase;
  let signal: ListeningOutboxSignal;

  beforeAll(async () => {
    database = await openTestDatabase(serverUrl!);
    signal = await listenForOutbox(database.url, silentLogger);
  });

  afterAll(async () => {
    await signal?.close();
    await database?.close();
  });

  it('wakes listeners when a write commits to the outbox', async () => {
    await createProject(database.db, new ManualClock(), 'listen');
    const woken = new Promise<void>((resolve) => {
      const unsubscribe = signal.subscribe(() => {
        unsubscribe();
        resolve();
      });
    });
    await new DocumentStore(database.db).create({ projectKey: 'listen' }, 'store', {});
    await expect(woken).resolves.toBeUndefined();
  });
});
