/**
 * Issue 25: scopes given to `POST /{projectKey}/api-clients` and to `herald clients create` are
 * checked against the scopes Herald knows — the official API's (generated from the reference by
 * scripts/reference/generate-scopes.ts) — so a typo is refused instead of stored as a scope that
 * grants nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClientCommand } from '../../src/oauth/create-api-client.js';
import { apiClient, type Client } from '../business-units/support.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'known-scopes';

describe('API client scopes are scopes Herald knows', () => {
  let gateway: TestGateway;
  let admin: Client;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await apiClient(gateway, P, ['manage_project']);
  });
  afterAll(() => gateway.close());

  it('POST /api-clients refuses an unknown scope name with 400 InvalidInput naming it', async () => {
    const answer = await admin.rest('POST', '/api-clients', { name: 'typo', scope: `view_stores:${P} manage_stroes:${P}` });
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[0]).toMatchObject({ code: 'InvalidInput', field: 'scope', invalidValue: `manage_stroes:${P}` });
    expect(answer.body.message).toContain("'manage_stroes' is not a scope Herald knows");
  });

  it('POST /api-clients accepts official scopes Herald has no resource for yet (view_orders, manage_products)', async () => {
    const created = await admin.ok('POST', '/api-clients', { name: 'catalogue', scope: `view_orders:${P} manage_products:${P}` }, 201);
    expect(created.scope).toBe(`view_orders:${P} manage_products:${P}`);
  });

  it('herald clients create refuses an unknown scope name: exit 1, the reason on stderr, nothing created', async () => {
    let stdout = '';
    let stderr = '';
    const code = await createApiClientCommand(
      { db: gateway.db, stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) },
      { projectKey: P, scope: `manage_project:${P} view_everything:${P}` },
    );
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe("herald: 'view_everything' is not a scope Herald knows.\n");
  });
});
