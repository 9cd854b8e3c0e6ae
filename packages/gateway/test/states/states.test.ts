import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { callerWith, type Caller } from '../carts/commerce.js';

const P = 'states-project';

describe('States /{projectKey}/states', () => {
  let gateway: TestGateway;
  let admin: Caller;
  let viewer: Caller;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_states']);
    viewer = await callerWith(gateway, P, ['view_states']);
  });
  afterAll(() => gateway.close());

  it('creates States with defaults and resolves transitions by key to references by id', async () => {
    const done = await admin.ok(`/${P}/states`, { key: 'qr-done', type: 'QuoteRequestState' }, 201);
    // The reference's StateDraft: `initial` defaults to true.
    expect(done).toMatchObject({ version: 1, key: 'qr-done', type: 'QuoteRequestState', initial: true, builtIn: false, roles: [] });
    expect(done.transitions).toBeUndefined();

    const start = await admin.ok(
      `/${P}/states`,
      {
        key: 'qr-start',
        type: 'QuoteRequestState',
        initial: true,
        name: { en: 'Start' },
        transitions: [{ typeId: 'state', key: 'qr-done' }, { id: done.id }, { typeId: null, id: null, key: 'qr-done' }],
      },
      201,
    );
    expect(start.initial).toBe(true);
    // null fields count as absent (generated clients send them); one reference per target.
    expect(start.transitions).toEqual([{ typeId: 'state', id: done.id }]);

    expect(await viewer.read(`/${P}/states/key=qr-start`)).toEqual(start);
    const expanded = await viewer.read(`/${P}/states/${start.id}?expand=transitions[*]`);
    expect(expanded.transitions[0].obj).toMatchObject({ id: done.id, key: 'qr-done' });
    const page = await viewer.read(`/${P}/states?where=${encodeURIComponent('type = "QuoteRequestState" and initial = true')}&withTotal=false`);
    // Both are initial: qr-done by the draft's default.
    expect(page.results.map((state: { key: string }) => state.key).sort()).toEqual(['qr-done', 'qr-start']);
    expect(page.total).toBeUndefined();
  });

  it('refuses transitions to missing States or States of another type', async () => {
    await admin.ok(`/${P}/states`, { key: 'order-open', type: 'OrderState' }, 201);
    const missing = await admin.post(`/${P}/states`, { key: 'qr-x', type: 'QuoteRequestState', transitions: [{ key: 'nope' }] });
    expect(missing.status).toBe(400);
    const otherType = await admin.post(`/${P}/states`, { key: 'qr-y', type: 'QuoteRequestState', transitions: [{ key: 'order-open' }] });
    expect(otherType.status).toBe(400);
    expect(otherType.body.message).toContain('OrderState');
    const badType = await admin.post(`/${P}/states`, { key: 'qr-z', type: 'NoSuchState' });
    expect(badType.status).toBe(400);
    const noKey = await admin.post(`/${P}/states`, { type: 'QuoteRequestState' });
    expect(noKey.status).toBe(400);
  });

  it('updates with its actions, and a State may list itself', async () => {
    // A LineItemState: the role Return applies to that type only (the reference's StateRoleEnum).
    const state = await admin.ok(`/${P}/states`, { key: 'loop', type: 'LineItemState', initial: false }, 201);
    const updated = await admin.update(`/${P}/states/${state.id}`, 1, [
      { action: 'setTransitions', transitions: [{ key: 'loop' }] },
      { action: 'changeInitial', initial: true },
      { action: 'setName', name: { en: 'Loop' } },
      { action: 'setDescription', description: { en: 'Goes round' } },
      { action: 'setRoles', roles: ['Return'] },
      { action: 'changeKey', key: 'loop-2' },
    ]);
    expect(updated).toMatchObject({
      version: 2,
      key: 'loop-2',
      initial: true,
      name: { en: 'Loop' },
      description: { en: 'Goes round' },
      roles: ['Return'],
      transitions: [{ typeId: 'state', id: state.id }],
    });
    // Changing the type keeps a self-transition valid (it changes type with the State).
    const retyped = await admin.update(`/${P}/states/${state.id}`, 2, [{ action: 'changeType', type: 'StagedQuoteState' }]);
    expect(retyped.type).toBe('StagedQuoteState');
    const cleared = await admin.update(`/${P}/states/${state.id}`, 3, [{ action: 'setTransitions' }]);
    expect(cleared.transitions).toBeUndefined();
  });

  it('deletes with the version and enforces the scopes', async () => {
    const state = await admin.ok(`/${P}/states`, { key: 'gone', type: 'QuoteRequestState' }, 201);
    expect((await viewer.post(`/${P}/states`, { key: 'nope', type: 'QuoteRequestState' })).status).toBe(403);
    expect((await viewer.delete(`/${P}/states/${state.id}?version=1`)).status).toBe(403);
    const outsider = await callerWith(gateway, P, ['view_types']);
    expect((await outsider.get(`/${P}/states`)).status).toBe(403);
    expect((await admin.delete(`/${P}/states/${state.id}?version=1`)).status).toBe(200);
    expect((await viewer.get(`/${P}/states/${state.id}`)).status).toBe(404);
  });
});
