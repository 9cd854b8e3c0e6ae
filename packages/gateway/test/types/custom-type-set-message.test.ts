/**
 * A `<Resource>CustomTypeSet` message carries the custom fields as `setCustomType` set them, not as
 * later actions of the same request left them: a message is what happened at its action.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'custom-type-set-message';

describe('CustomTypeSet messages', () => {
  let gateway: TestGateway;
  let admin: Caller;
  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_project']);
    await admin.ok(
      `/${P}/types`,
      {
        key: 'notes',
        name: { en: 'Notes' },
        resourceTypeIds: ['customer-group'],
        fieldDefinitions: [{ name: 'note', type: { name: 'String' }, required: false, label: { en: 'Note' } }],
      },
      201,
    );
  }, 120_000);
  afterAll(() => gateway?.close());

  it('keeps the fields setCustomType set, when a setCustomField of the same request changes them', async () => {
    const group = await admin.ok(`/${P}/customer-groups`, { key: 'noted', groupName: 'Noted' }, 201);
    await admin.update(`/${P}/customer-groups/${group.id as string}`, 1, [
      { action: 'setCustomType', type: { key: 'notes', typeId: 'type' }, fields: { note: 'first' } },
      { action: 'setCustomField', name: 'note', value: 'second' },
    ]);
    const page = await admin.read(`/${P}/messages?where=${encodeURIComponent(`resource(id = "${group.id as string}")`)}&sort=sequenceNumber`);
    const byType = (type: string) => (page.results as Json[]).find((message) => message.type === type);
    expect(byType('CustomerGroupCustomTypeSet')?.customFields.fields).toEqual({ note: 'first' });
    expect(byType('CustomerGroupCustomFieldChanged')).toMatchObject({ name: 'note', value: 'second', oldValue: 'first' });
  });
});
