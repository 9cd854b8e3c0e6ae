import { createIsolatedDatabase } from '@herald/testkit';
import { afterAll, beforeAll } from 'vitest';
import { openDatabase, type Database } from '../../src/index.js';

/**
 * A database of its own on `serverUrl` for the enclosing `describe`: created and migrated before
 * its tests, closed and dropped after them. Returns the accessor of the open database.
 */
export function useIsolatedDatabase(serverUrl: string): () => Database {
  let db: Database | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const isolated = await createIsolatedDatabase(serverUrl);
    drop = isolated.drop;
    db = await openDatabase(isolated.url);
  });
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });
  return () => {
    if (db === undefined) throw new Error('the isolated database is open only inside its describe block');
    return db;
  };
}
