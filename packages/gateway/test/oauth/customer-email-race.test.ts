/**
 * Two customers changing to the same e-mail at once, on PostgreSQL. The unique
 * index of migration 002 keeps the e-mails unique, but the loser's error is the store's generic
 * mapping of every unique violation (document-store.ts `mapUniqueViolation`):
 * DuplicateField on `key`. CustomerService.update asks `explainDuplicate`, as create does, which
 * of the two it was.
 *
 * On PGlite statements run one at a time, so the check in `changeEmail` always sees the other
 * commit; the race needs PostgreSQL (skipped when initdb/pg_ctl are missing).
 */
import { postgresAvailable, startPostgres, type RunningService } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatedGateway, type GatedGateway } from '../support/gated-gateway.js';
import { bootstrap, createCustomer, postJson, token } from './helpers.js';

const P = 'email-race';

describe.skipIf(!postgresAvailable())('changeEmail racing another changeEmail on PostgreSQL', { timeout: 60_000 }, () => {
  let server: RunningService | undefined;
  let gateway: GatedGateway;
  let admin: string;

  beforeAll(async () => {
    server = await startPostgres();
    gateway = await startGatedGateway([P], { serverUrl: server.url });
    admin = (await token(gateway, bootstrap(gateway), { grant_type: 'client_credentials', scope: `manage_project:${P}` })).access_token;
  });
  afterAll(async () => {
    await gateway?.close();
    await server?.stop();
  });

  it('answers the loser with DuplicateField on email, not on key', async () => {
    const first = await createCustomer(gateway, P, { email: 'first@example.com', password: 'pw', key: 'first-customer' });
    const second = await createCustomer(gateway, P, { email: 'second@example.com', password: 'pw', key: 'second-customer' });

    // The first request has checked that the e-mail is free and is about to write its new version…
    const gate = gateway.holdBefore((sql, params, inTransaction) => inTransaction && sql.includes('UPDATE resources SET key') && params[5] === first.id);
    const firstChange = postJson(gateway, `/${P}/customers/${first.id}`, admin, {
      version: 1,
      actions: [{ action: 'changeEmail', email: 'taken@example.com' }],
    });
    await gate.reached;
    // …while the second one takes the same e-mail (different case) and commits.
    const secondChange = await postJson(gateway, `/${P}/customers/${second.id}`, admin, {
      version: 1,
      actions: [{ action: 'changeEmail', email: 'TAKEN@example.com' }],
    });
    expect(secondChange.statusCode, secondChange.body).toBe(200);
    gate.open();

    const lost = await firstChange;
    expect(lost.statusCode, lost.body).toBe(400);
    // Not {field: 'key', duplicateValue: 'first-customer'}: the customer's own key.
    expect(lost.json().errors[0]).toMatchObject({ code: 'DuplicateField', field: 'email' });
  });
});
