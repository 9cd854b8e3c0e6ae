import { randomBytes } from 'node:crypto';

/**
 * The database URLs the storage suite runs against: always in-memory PGlite, plus PostgreSQL when
 * DATABASE_URL points at one (CI and `npm test` start a throwaway cluster and set it).
 */
export function testDatabaseUrls(): string[] {
  const urls = ['pglite://memory'];
  const url = process.env.DATABASE_URL;
  if (url !== undefined && url.startsWith('postgres')) urls.push(url);
  return urls;
}

/**
 * Creates a fresh, empty database on the PostgreSQL server of `serverUrl` so that suites running
 * in parallel never see each other's rows. PGlite URLs are returned as they are (each open is new).
 */
export async function createIsolatedDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  if (!serverUrl.startsWith('postgres')) return { url: serverUrl, drop: async () => undefined };
  const { default: pg } = await import('pg');
  const name = `herald_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
