/**
 * Secrets are never logged, HTTP Authorization headers included. The External OAuth authorization
 * header (§5.7) is sealed at rest only with HERALD_SECRET_KEY (stored as given without it), and
 * every view of the project shows it partially hidden: `herald projects create KEY` on an existing
 * project prints the project to stdout (a container's log), so it must print it masked too. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, ProjectStore } from '@herald/store';
import { createIsolatedDatabase } from '@herald/testkit';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildGateway } from '../../src/app.js';
import { runCli } from '../../src/cli/commands.js';
import { defaultConfig } from '../../src/config/config.js';
import { bearer, tokenFor, type TestGateway } from '../support/gateway.js';

const P = 'cli-ext';
const BOOTSTRAP = { id: 'cli-ext-bootstrap', secret: 'cli-ext-bootstrap-secret' };
const HEADER = 'Bearer introspection-credential-5c1d9e7a3b';

describe('herald projects create on an existing project', { timeout: 60_000 }, () => {
  const pgliteDir = mkdtempSync(join(tmpdir(), 'herald-cli-ext-'));
  afterAll(() => rmSync(pgliteDir, { recursive: true, force: true }));

  it('does not print the External OAuth authorization header (default: no HERALD_SECRET_KEY)', async () => {
    const server = process.env.DATABASE_URL;
    const isolated = await createIsolatedDatabase(server?.startsWith('postgres') === true ? server : `pglite://${pgliteDir}`);
    try {
      // A project with External OAuth configured through the API, as an operator would.
      const db = await openDatabase(isolated.url);
      await new ProjectStore(db).ensure(P);
      const base = defaultConfig();
      const gateway = await buildGateway(
        Object.freeze({ ...base, projects: [P], oauth: { ...base.oauth, bootstrapClient: BOOTSTRAP, tokenRateLimitPerMinute: 0 } }),
        { db, logger: false },
      );
      try {
        const token = await tokenFor({ app: gateway.app, bootstrapClient: BOOTSTRAP } as unknown as TestGateway, P, ['manage_project']);
        const project = (await gateway.app.inject({ method: 'GET', url: `/${P}`, headers: bearer(token) })).json() as { version: number };
        const set = await gateway.app.inject({
          method: 'POST',
          url: `/${P}`,
          headers: bearer(token),
          payload: {
            version: project.version,
            actions: [{ action: 'setExternalOAuth', externalOAuth: { url: 'https://introspect.example.com/', authorizationHeader: HEADER } }],
          },
        });
        expect(set.statusCode, set.body).toBe(200);
        expect(set.body).not.toContain(HEADER); // the API masks it
      } finally {
        await gateway.app.close();
        await db.close();
      }

      // The operator runs the documented command again (e.g. an idempotent start-up script).
      const written: string[] = [];
      const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
        written.push(String(chunk));
        return true;
      });
      let code: number | undefined;
      try {
        code = await runCli(['projects', 'create', P], { DATABASE_URL: isolated.url, LOG_LEVEL: 'silent' });
      } finally {
        stdout.mockRestore();
      }
      expect(code).toBe(0);
      const output = written.join('');
      expect(output).toContain(`"key":"${P}"`);
      expect(output, 'stdout of `herald projects create`').not.toContain('introspection-credential');
    } finally {
      await isolated.drop();
    }
  });
});
