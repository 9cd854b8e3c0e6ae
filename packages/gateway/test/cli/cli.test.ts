import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, startHerald } from '../../src/index.js';

const run = promisify(execFile);
const main = resolve(import.meta.dirname, '../../src/cli/main.ts');
const dataDir = mkdtempSync(join(tmpdir(), 'herald-cli-'));
const env = { ...process.env, DATABASE_URL: `pglite://${dataDir}`, LOG_LEVEL: 'silent' };

/** The real entry point, as a user runs it (through tsx, on the TypeScript sources). */
const herald = (...args: string[]) => run(process.execPath, ['--import', 'tsx', '--conditions=@herald/source', main, ...args], { env, timeout: 60_000 });

describe('herald CLI', () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates a project and an API client whose printed secret obtains a token', async () => {
    const project = await herald('projects', 'create', 'cli-shop');
    expect(JSON.parse(project.stdout)).toMatchObject({ key: 'cli-shop', version: 1 });

    const created = await herald('clients', 'create', '--project', 'cli-shop', '--scope', 'view_stores:cli-shop', '--name', 'reporting');
    const client = JSON.parse(created.stdout) as { id: string; secret: string; scope: string };
    expect(client).toMatchObject({ projectKey: 'cli-shop', name: 'reporting', scope: 'view_stores:cli-shop' });
    expect(created.stderr).toContain('only this once');

    const server = await startHerald(loadConfig({ DATABASE_URL: env.DATABASE_URL, PORT: '0', LOG_LEVEL: 'silent', HERALD_DELIVERY: 'off' }));
    try {
      const token = await fetch(`${server.url}/oauth/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials',
      });
      expect(token.status).toBe(200);
      const { access_token: accessToken, scope } = (await token.json()) as { access_token: string; scope: string };
      expect(scope).toBe('view_stores:cli-shop');
      const stores = await fetch(`${server.url}/cli-shop/stores`, { headers: { authorization: `Bearer ${accessToken}` } });
      expect(stores.status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('refuses incomplete commands with usage and exit code 2', async () => {
    const failure = await herald('clients', 'create', '--project', 'cli-shop').then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain('Usage: herald clients create');
  }, 60_000);
});
