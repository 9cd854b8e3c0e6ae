/**
 * An update action that changes nothing emits no message, so the version does not move and
 * neither a message nor a ResourceUpdated change notification goes to the subscribers
 * (DocumentStore.nextVersion skips such updates). Needless version bumps would also turn other
 * clients' concurrent updates into 409s (§9). Business units behave alike (business-units/actions.ts).
 *
 * Stores: setName and setLanguages with the current values; custom fields (shared by every resource).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { callerWith, type Caller } from '../carts/commerce.js';

const P = 'store-unchanged-values';

describe('store update actions that change nothing', () => {
  let gateway: TestGateway;
  let admin: Caller;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_project']);
  });
  afterAll(() => gateway.close());

  const outboxOf = async (id: string) =>
    (await gateway.db.query<{ kind: string }>("SELECT kind FROM outbox WHERE payload -> 'resource' ->> 'id' = $1", [id])).rows.length;

  it('store setName / setLanguages with the current values keep the version and emit nothing', async () => {
    const store = await admin.ok(`/${P}/stores`, { key: 'berlin', name: { en: 'Berlin' }, languages: ['en'] }, 201);
    const before = await outboxOf(store.id);
    const same = await admin.update(`/${P}/stores/${store.id}`, 1, [
      { action: 'setName', name: { en: 'Berlin' } },
      { action: 'setLanguages', languages: ['en'] },
    ]);
    expect({ version: same.version, newEvents: (await outboxOf(store.id)) - before }).toEqual({ version: 1, newEvents: 0 });
  });

  it('setCustomType / setCustomField with the current type and values keep the version and emit nothing', async () => {
    const fieldDefinitions = [{ name: 'region', label: { en: 'Region' }, required: false, type: { name: 'String' } }];
    const type = await admin.ok(`/${P}/types`, { key: 'store-fields', name: { en: 'S' }, resourceTypeIds: ['store'], fieldDefinitions }, 201);
    const store = await admin.ok(
      `/${P}/stores`,
      { key: 'vienna', name: { en: 'Vienna' }, custom: { type: { typeId: 'type', key: type.key }, fields: { region: 'east' } } },
      201,
    );
    const before = await outboxOf(store.id);
    const same = await admin.update(`/${P}/stores/${store.id}`, 1, [
      { action: 'setCustomType', type: { typeId: 'type', key: type.key }, fields: { region: 'east' } },
      { action: 'setCustomField', name: 'region', value: 'east' },
    ]);
    expect({ version: same.version, newEvents: (await outboxOf(store.id)) - before }).toEqual({ version: 1, newEvents: 0 });
    const changed = await admin.update(`/${P}/stores/${store.id}`, 1, [{ action: 'setCustomField', name: 'region', value: 'west' }]);
    // A new version and its change notification; no message (the reference has no Store custom field messages).
    expect({ version: changed.version, newEvents: (await outboxOf(store.id)) - before }).toEqual({ version: 2, newEvents: 1 });
  });

  it('a changed value still bumps the version once and emits its message', async () => {
    const store = await admin.ok(`/${P}/stores`, { key: 'paris', name: { en: 'Paris' }, languages: ['en'] }, 201);
    const before = await outboxOf(store.id);
    const changed = await admin.update(`/${P}/stores/${store.id}`, 1, [
      { action: 'setName', name: { en: 'Paris' } },
      { action: 'setLanguages', languages: ['en', 'fr'] },
    ]);
    expect({ version: changed.version, newEvents: (await outboxOf(store.id)) - before }).toEqual({ version: 2, newEvents: 2 });
  });
});
