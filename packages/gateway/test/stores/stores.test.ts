import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestGateway, tokenFor, type TestGateway } from '../support/gateway.js';

interface StoreBody {
  id: string;
  key: string;
  version: number;
  name?: Record<string, string>;
  languages: string[];
}

/** Stores: the first resource and the template of every later one (all eight operations). */
describe('stores', () => {
  let gateway: TestGateway;
  let manage: Record<string, string>;
  let view: Record<string, string>;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: ['shop', 'other'] });
    manage = bearer(await tokenFor(gateway, 'shop', ['manage_stores']));
    view = bearer(await tokenFor(gateway, 'shop', ['view_stores']));
  });
  afterAll(() => gateway.close());

  const create = async (payload: unknown) => gateway.app.inject({ method: 'POST', url: '/shop/stores', headers: manage, payload: payload as object });

  it('creates (201), gets by id and by key, and records createdBy from the token', async () => {
    const created = await create({ key: 'berlin', name: { en: 'Berlin', de: 'Berlin' }, languages: ['en', 'de'] });
    expect(created.statusCode).toBe(201);
    const store = created.json() as StoreBody & { createdBy: { clientId: string } };
    expect(store).toMatchObject({ key: 'berlin', version: 1, languages: ['en', 'de'] });
    expect(store.createdBy.clientId).toBe(gateway.bootstrapClient.id);
    const byId = await gateway.app.inject({ method: 'GET', url: `/shop/stores/${store.id}`, headers: view });
    expect(byId.json()).toEqual(store);
    const byKey = await gateway.app.inject({ method: 'GET', url: '/shop/stores/key=berlin', headers: view });
    expect(byKey.json()).toEqual(store);
  });

  it('validates drafts with 400s that name the field', async () => {
    for (const [draft, field] of [
      [{}, 'key'],
      [{ key: 'a' }, 'key'],
      [{ key: 'has space' }, 'key'],
      [{ key: 'ok-key', name: 'not localized' }, 'name'],
      [{ key: 'ok-key', languages: ['en', 7] }, 'languages'],
    ] as const) {
      const response = await create(draft);
      expect(response.statusCode, JSON.stringify(draft)).toBe(400);
      expect(JSON.stringify(response.json())).toContain(field);
    }
    expect((await create([1, 2])).statusCode).toBe(400);
  });

  it('rejects a duplicate key with DuplicateField', async () => {
    await create({ key: 'dup' });
    const again = await create({ key: 'dup' });
    expect(again.statusCode).toBe(400);
    expect(again.json().errors[0]).toMatchObject({ code: 'DuplicateField', field: 'key' });
  });

  it('updates by id and by key; 409 with currentVersion on a stale version; all actions or none', async () => {
    const store = (await create({ key: 'hamburg', name: { en: 'Hamburg' } })).json() as StoreBody;
    const updated = await gateway.app.inject({
      method: 'POST',
      url: `/shop/stores/${store.id}`,
      headers: manage,
      payload: {
        version: 1,
        actions: [
          { action: 'setName', name: { en: 'HH' } },
          { action: 'setLanguages', languages: ['de'] },
        ],
      },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ version: 2, name: { en: 'HH' }, languages: ['de'] });

    const stale = await gateway.app.inject({
      method: 'POST',
      url: '/shop/stores/key=hamburg',
      headers: manage,
      payload: { version: 1, actions: [{ action: 'setName', name: { en: 'late' } }] },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().errors[0]).toMatchObject({ code: 'ConcurrentModification', currentVersion: 2 });

    const partlyInvalid = await gateway.app.inject({
      method: 'POST',
      url: '/shop/stores/key=hamburg',
      headers: manage,
      payload: { version: 2, actions: [{ action: 'setName', name: { en: 'changed' } }, { action: 'noSuchAction' }] },
    });
    expect(partlyInvalid.statusCode).toBe(400);
    const after = await gateway.app.inject({ method: 'GET', url: '/shop/stores/key=hamburg', headers: view });
    expect(after.json()).toMatchObject({ version: 2, name: { en: 'HH' } });

    const missingVersion = await gateway.app.inject({
      method: 'POST',
      url: '/shop/stores/key=hamburg',
      headers: manage,
      payload: { actions: [] },
    });
    expect(missingVersion.statusCode).toBe(400);
  });

  it('deletes by key with the version, answering the deleted store; then 404', async () => {
    const store = (await create({ key: 'gone' })).json() as StoreBody;
    const noVersion = await gateway.app.inject({ method: 'DELETE', url: '/shop/stores/key=gone', headers: manage });
    expect(noVersion.statusCode).toBe(400);
    const deleted = await gateway.app.inject({ method: 'DELETE', url: '/shop/stores/key=gone?version=1', headers: manage });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().id).toBe(store.id);
    const missing = await gateway.app.inject({ method: 'GET', url: `/shop/stores/${store.id}`, headers: view });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().errors[0].code).toBe('ResourceNotFound');
  });

  it('queries with where, var.*, sort, paging and withTotal, and never across projects', async () => {
    for (const key of ['q-a', 'q-b', 'q-c']) await create({ key, name: { en: `Query ${key}` }, languages: ['en'] });
    const otherToken = bearer(await tokenFor(gateway, 'other', ['manage_stores']));
    await gateway.app.inject({ method: 'POST', url: '/other/stores', headers: otherToken, payload: { key: 'q-z' } });

    const page = await gateway.app.inject({
      method: 'GET',
      url: '/shop/stores?where=key%20in%20:keys&var.keys=q-a&var.keys=q-c&var.keys=q-z&sort=key%20desc&limit=1&offset=0',
      headers: view,
    });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ limit: 1, offset: 0, count: 1, total: 2, results: [{ key: 'q-c' }] });

    const noTotal = await gateway.app.inject({ method: 'GET', url: '/shop/stores?withTotal=false', headers: view });
    expect(noTotal.json().total).toBeUndefined();

    for (const bad of ['limit=0', 'limit=501', 'offset=10001', 'where=key%20%3D', 'sort=key%20sideways', 'withTotal=maybe']) {
      const response = await gateway.app.inject({ method: 'GET', url: `/shop/stores?${bad}`, headers: view });
      expect(response.statusCode, bad).toBe(400);
      expect(response.json().errors[0].code).toBe('InvalidInput');
    }
  });

  it('emits StoreCreated / StoreNameSet / StoreDeleted messages and change notifications in the outbox', async () => {
    await gateway.db.query('DELETE FROM outbox');
    const store = (await create({ key: 'msgs', name: { en: 'M' } })).json() as StoreBody;
    await gateway.app.inject({
      method: 'POST',
      url: `/shop/stores/${store.id}`,
      headers: manage,
      payload: { version: 1, actions: [{ action: 'setName', name: { en: 'N' } }] },
    });
    await gateway.app.inject({ method: 'DELETE', url: `/shop/stores/${store.id}?version=2`, headers: manage });
    const rows = await gateway.db.query<{ payload: { notificationType: string; type?: string; sequenceNumber?: number } }>(
      'SELECT payload FROM outbox ORDER BY seq',
    );
    expect(rows.rows.map(({ payload }) => payload.type ?? payload.notificationType)).toEqual([
      'StoreCreated',
      'ResourceCreated',
      'StoreNameSet',
      'ResourceUpdated',
      'StoreDeleted',
      'ResourceDeleted',
    ]);
    expect(rows.rows.filter(({ payload }) => payload.type !== undefined).map(({ payload }) => payload.sequenceNumber)).toEqual([1, 2, 3]);
  });
});
