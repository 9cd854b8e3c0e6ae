import { openDatabase, ProjectStore, type Database } from '@herald/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway, type Gateway } from '../../src/app.js';
import { ConfigError, defaultConfig, loadConfig } from '../../src/config/config.js';
import { VARIABLES } from '../../src/config/variables.js';
import { ApiClientStore } from '../../src/oauth/api-client-store.js';
import { ClientAuthenticator } from '../../src/oauth/client-auth.js';
import { createApiClientCommand } from '../../src/oauth/create-api-client.js';
import { basicAuth } from '../support/gateway.js';
import { FORM } from './helpers.js';

const P = 'cli';

function output() {
  const captured = { stdout: '', stderr: '' };
  return {
    captured,
    stdout: (text: string) => void (captured.stdout += text),
    stderr: (text: string) => void (captured.stderr += text),
  };
}

describe('herald clients create (createApiClientCommand) and HERALD_BOOTSTRAP_CLIENT', () => {
  let db: Database;
  let gateway: Gateway | undefined;
  beforeAll(async () => {
    db = await openDatabase('pglite://memory');
    await new ProjectStore(db).ensure(P);
  });
  afterAll(async () => {
    await gateway?.app.close();
    await db?.close();
  });

  it('prints the id and secret once, stores only a hash, and the client works', async () => {
    const io = output();
    const code = await createApiClientCommand({ db, ...io }, { projectKey: P, scope: `view_stores:${P} manage_customers:${P}`, name: 'ci' });
    expect(code).toBe(0);
    const printed = JSON.parse(io.captured.stdout) as { id: string; secret: string; scope: string; projectKey: string; name: string };
    expect(printed).toEqual({ id: expect.any(String), secret: expect.any(String), name: 'ci', projectKey: P, scope: `view_stores:${P} manage_customers:${P}` });
    expect(io.captured.stderr).toMatch(/shown only this once/);

    const rows = await db.query<{ secret_hash: string }>('SELECT secret_hash FROM api_clients WHERE id = $1', [printed.id]);
    expect(rows.rows[0]?.secret_hash).toMatch(/^sha256\$[0-9a-f]{64}$/);
    expect(JSON.stringify(rows.rows)).not.toContain(printed.secret);

    gateway = await buildGateway(
      defaultConfig({ projects: [P], oauth: { ...defaultConfig().oauth, bootstrapClient: { id: 'boot', secret: 'first-secret' } } }),
      { db, logger: false },
    );
    const response = await gateway.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { ...basicAuth(printed.id, printed.secret), ...FORM },
      payload: 'grant_type=client_credentials',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().scope).toBe(`view_stores:${P} manage_customers:${P}`);
  });

  it('refuses an unknown project or scopes of another project', async () => {
    const unknown = output();
    expect(await createApiClientCommand({ db, ...unknown }, { projectKey: 'nope', scope: 'view_stores:nope' })).toBe(1);
    expect(unknown.captured.stdout).toBe('');
    expect(unknown.captured.stderr).toMatch(/does not exist/);

    const foreign = output();
    expect(await createApiClientCommand({ db, ...foreign }, { projectKey: P, scope: 'view_stores:elsewhere' })).toBe(1);
    expect(foreign.captured.stderr).toMatch(/not a scope of the project/);
  });

  it('the bootstrap client follows the configuration: scrypt-hashed, secret and scopes updated at start', async () => {
    const clients = new ApiClientStore(db, { now: () => new Date() });
    const authenticate = (secret: string) =>
      new ClientAuthenticator(clients).authenticate(basicAuth('boot', secret).authorization).then(
        (client) => client.scopes,
        () => 'refused',
      );
    // buildGateway above ensured it with `first-secret` and manage_project on every configured project.
    expect(await authenticate('first-secret')).toEqual([`manage_project:${P}`]);
    const stored = await db.query<{ secret_hash: string }>("SELECT secret_hash FROM api_clients WHERE id = 'boot'");
    expect(stored.rows[0]?.secret_hash).toMatch(/^scrypt\$/);

    await clients.ensureBootstrap('boot', 'second-secret', [`manage_project:${P}`, 'manage_project:new']);
    expect(await authenticate('first-secret')).toBe('refused');
    expect(await authenticate('second-secret')).toEqual([`manage_project:${P}`, 'manage_project:new']);
  });
});

describe('OAuth configuration variables', () => {
  it('parses HERALD_BOOTSTRAP_CLIENT and the token settings, with defaults', () => {
    const defaults = loadConfig({}).oauth;
    expect(defaults).toEqual({
      bootstrapClient: undefined,
      accessTokenTtlSeconds: 172_800,
      refreshTokenCap: 10_000_000,
      tokenRateLimitPerMinute: 600,
      tokenCacheSeconds: 10,
    });
    const configured = loadConfig({
      HERALD_BOOTSTRAP_CLIENT: 'admin:s3cret:with:colons',
      HERALD_TOKEN_TTL_SECONDS: '3600',
      HERALD_REFRESH_TOKEN_CAP: '1000',
      HERALD_TOKEN_RATE_LIMIT: '0',
      HERALD_TOKEN_CACHE_SECONDS: '0',
    }).oauth;
    expect(configured).toEqual({
      bootstrapClient: { id: 'admin', secret: 's3cret:with:colons' },
      accessTokenTtlSeconds: 3600,
      refreshTokenCap: 1000,
      tokenRateLimitPerMinute: 0,
      tokenCacheSeconds: 0,
    });
  });

  it('rejects a malformed bootstrap client without echoing the secret', () => {
    for (const value of ['no-colon-here', 'x:short', 'bad id:long-enough-secret']) {
      let thrown: unknown;
      try {
        loadConfig({ HERALD_BOOTSTRAP_CLIENT: value });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ConfigError);
      expect((thrown as Error).message).not.toContain(value.split(':')[1] ?? value);
    }
    expect(() => loadConfig({ HERALD_TOKEN_TTL_SECONDS: '5' })).toThrow(ConfigError);
  });

  it('documents every OAuth variable in VARIABLES', () => {
    const names = VARIABLES.map((variable) => variable.name);
    for (const name of [
      'HERALD_BOOTSTRAP_CLIENT',
      'HERALD_TOKEN_TTL_SECONDS',
      'HERALD_REFRESH_TOKEN_CAP',
      'HERALD_TOKEN_RATE_LIMIT',
      'HERALD_TOKEN_CACHE_SECONDS',
    ]) {
      expect(names).toContain(name);
    }
  });
});
