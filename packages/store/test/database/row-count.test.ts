import { createIsolatedDatabase, testDatabaseUrls } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/index.js';

/** Both drivers count rows as `pg` does, so code and tests reading `rowCount` mean one thing. */
describe.each(testDatabaseUrls())('rowCount on %s', (serverUrl) => {
  let db: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const isolated = await createIsolatedDatabase(serverUrl);
    drop = isolated.drop;
    db = await openDatabase(isolated.url);
    await db.query('CREATE TABLE counted (n integer)');
  });
  afterAll(async () => {
    await db.close();
    await drop();
  });

  it('is the number of rows written, or of rows a SELECT returns', async () => {
    expect((await db.query('INSERT INTO counted (n) VALUES (1), (2), (3)')).rowCount).toBe(3);
    expect((await db.query('SELECT n FROM counted WHERE n > 1')).rowCount).toBe(2);
    expect((await db.query('SELECT n FROM counted WHERE n > 5')).rowCount).toBe(0);
    expect((await db.query('UPDATE counted SET n = n + 10 WHERE n < 3')).rowCount).toBe(2);
    expect((await db.query('DELETE FROM counted WHERE n > 100')).rowCount).toBe(0);
    expect((await db.query('DELETE FROM counted RETURNING n')).rowCount).toBe(3);
  });
});
