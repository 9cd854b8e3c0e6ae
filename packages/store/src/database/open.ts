import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { newDatabaseScript, runMigrations } from '../migrations/run.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';
import type { Database } from './types.js';

export const DEFAULT_DATABASE_URL = 'pglite://./.herald/data';

export type DatabaseLocation = { driver: 'postgres'; url: string } | { driver: 'pglite'; dataDir: string | undefined };

/**
 * `postgres://…` → PostgreSQL; `pglite://memory` → in-memory PGlite; `pglite://PATH` → PGlite at
 * PATH (relative to the working directory). Anything else is a configuration error.
 */
export function parseDatabaseUrl(url: string = DEFAULT_DATABASE_URL): DatabaseLocation {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return { driver: 'postgres', url };
  if (url.startsWith('pglite://')) {
    const path = url.slice('pglite://'.length);
    if (path === '') throw new Error('DATABASE_URL pglite:// needs a path or "memory"');
    return { driver: 'pglite', dataDir: path === 'memory' ? undefined : resolve(path) };
  }
  throw new Error(`DATABASE_URL must start with postgres://, postgresql:// or pglite:// (got "${url.split(':')[0]}:")`);
}

/**
 * Opens the database named by `url` and brings its schema up to date. A PGlite data directory is
 * locked while it is open: one that another process holds throws DataDirectoryInUseError.
 */
export async function openDatabase(url?: string): Promise<Database> {
  const location = parseDatabaseUrl(url);
  let db: Database;
  if (location.driver === 'postgres') {
    db = await openPostgres(location.url);
  } else {
    if (location.dataDir !== undefined) mkdirSync(location.dataDir, { recursive: true });
    db = await openPglite(location.dataDir, newDatabaseScript);
  }
  try {
    await runMigrations(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
