/**
 * States as the official reference defines them (types/state): the StateDraft default
 * `initial: true`, the type RecurringOrderState, and the role actions addRoles, removeRoles and
 * setRoles with their InvalidOperation rules (a role present already, none present, a role that
 * does not apply to the State's type).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';

const P = 'states-official';

describe("states: the reference's draft defaults and role actions", () => {
  let gateway: TestGateway;
  let admin: Caller;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_states']);
  });
  afterAll(() => gateway.close());

  const update = (state: Json, actions: Json[]) => admin.post(`/${P}/states/${state.id}`, { version: state.version, actions });

  it('makes a State initial unless the draft says otherwise, and knows RecurringOrderState', async () => {
    expect((await admin.ok(`/${P}/states`, { key: 'recurring', type: 'RecurringOrderState' }, 201)).initial).toBe(true);
    expect((await admin.ok(`/${P}/states`, { key: 'later', type: 'OrderState', initial: false }, 201)).initial).toBe(false);
  });

  it('adds and removes roles; refuses a role present already, removing none, and a role of another State type', async () => {
    const state = await admin.ok(`/${P}/states`, { key: 'returned', type: 'LineItemState' }, 201);
    const added = await update(state, [{ action: 'addRoles', roles: ['Return'] }]);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body).toMatchObject({ version: 2, roles: ['Return'] });

    const refusals = [
      await update(added.body, [{ action: 'addRoles', roles: ['Return'] }]),
      await update(added.body, [{ action: 'addRoles', roles: ['ReviewIncludedInStatistics'] }]),
      await update(added.body, [{ action: 'setRoles', roles: ['ReviewIncludedInStatistics'] }]),
    ];
    for (const refused of refusals) {
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body.errors[0].code).toBe('InvalidOperation');
    }

    const removed = await update(added.body, [{ action: 'removeRoles', roles: ['Return'] }]);
    expect(removed.body).toMatchObject({ version: 3, roles: [] });
    const none = await update(removed.body, [{ action: 'removeRoles', roles: ['Return'] }]);
    expect(none.status).toBe(400);
    expect(none.body.errors[0].code).toBe('InvalidOperation');
    const unknown = await update(removed.body, [{ action: 'addRoles', roles: ['Admin'] }]);
    expect(unknown.body.errors[0].code).toBe('InvalidInput');
  });

  it('sets the review role on a ReviewState', async () => {
    const state = await admin.ok(`/${P}/states`, { key: 'approved', type: 'ReviewState' }, 201);
    const set = await update(state, [{ action: 'setRoles', roles: ['ReviewIncludedInStatistics'] }]);
    expect(set.body.roles).toEqual(['ReviewIncludedInStatistics']);
  });
});
