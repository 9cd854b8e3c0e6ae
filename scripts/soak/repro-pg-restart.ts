/**
 * Reproduces the pg-restart finding in isolation: a `pg_ctl restart` while a transaction holds a
 * pooled client. Prints whether the process survives.
 *
 *   node --conditions=@herald/source --import tsx scripts/soak/repro-pg-restart.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@herald/store';
import { startPostgres } from './services.js';

const dir = mkdtempSync(join(tmpdir(), 'herald-repro-'));
const pg = await startPostgres(dir);
process.on('exit', () => {
  pg.stop();
  rmSync(dir, { recursive: true, force: true });
});
process.on('uncaughtException', (error) => {
  process.stdout.write(`UNCAUGHT (this kills a process without such a handler): ${error.stack ?? String(error)}\n`);
  process.exit(1);
});
const db = await openDatabase(pg.url);
const inTransaction = db
  .transaction(async (tx) => {
    await tx.query('SELECT 1');
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // the app works between statements
    await tx.query('SELECT 2');
  })
  .then(
    () => 'committed',
    (error: unknown) => `rejected: ${String(error)}`,
  );
await new Promise((resolve) => setTimeout(resolve, 500));
pg.restart();
process.stdout.write(`transaction ${await inTransaction}\n`);
process.stdout.write(`after restart: ${JSON.stringify((await db.query('SELECT 1 AS ok')).rows)}\n`);
await db.close();
