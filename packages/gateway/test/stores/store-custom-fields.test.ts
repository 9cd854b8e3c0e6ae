/**
 * Every message a store records is one a MessageSubscription may ask for (§2.4: `types` are message
 * types of the resource; the catalogue once lacked some, and such a subscription was a 400). Custom
 * field changes of a store are new versions without a message: the official reference has no
 * Store custom field messages (Herald once recorded `StoreCustomFieldAdded` and the like, types no
 * client of the official API knows).
 */
import { MESSAGE_TYPES } from '@herald/model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { apiClient, messagesOf, type Client } from '../business-units/support.js';

const P = 'store-custom';

describe('store custom fields: messages and subscribing to them', () => {
  let gateway: TestGateway;
  let admin: Client;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await apiClient(gateway, P, ['manage_project']);
  });
  afterAll(() => gateway.close());

  it('every message type a store records is one MessageSubscription.types accepts', async () => {
    const fieldDefinitions = [{ name: 'region', label: { en: 'Region' }, required: false, type: { name: 'String' } }];
    await admin.ok('POST', '/types', { key: 'store-type', name: { en: 'S' }, resourceTypeIds: ['store'], fieldDefinitions }, 201);
    let store = await admin.ok('POST', '/stores', { key: 'main-store' }, 201);
    const versions: number[] = [];
    for (const action of [
      { action: 'setCustomType', type: { key: 'store-type' } },
      { action: 'setCustomField', name: 'region', value: 'north' },
      { action: 'setCustomField', name: 'region', value: 'south' },
      { action: 'setCustomField', name: 'region' },
      { action: 'setCustomType' },
      { action: 'setName', name: { en: 'Main' } },
      { action: 'setLanguages', languages: ['en'] },
      { action: 'addCountry', country: { code: 'DE' } },
      { action: 'setFaqUrl', faqUrl: 'https://shop.example/faq' },
    ]) {
      store = await admin.ok('POST', `/stores/${store.id as string}`, { version: store.version, actions: [action] });
      versions.push(store.version as number);
    }
    expect(versions).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const recorded = (await messagesOf(admin, store.id as string)).map((message) => message.type as string);
    expect(recorded).toEqual(['StoreCreated', 'StoreNameSet', 'StoreLanguagesChanged', 'StoreCountriesChanged', 'StoreFaqUrlSet']);
    expect(MESSAGE_TYPES.store).toEqual(expect.arrayContaining(recorded));

    // Through the API as well: an unreachable destination fails only after `types` was accepted.
    const answer = await admin.rest('POST', '/subscriptions', {
      destination: { type: 'SQS', queueUrl: 'http://127.0.0.1:1/000000000000/q', region: 'us-east-1', accessKey: 'AKIAXXXXXXXXXXXXXXXX', accessSecret: 'x' },
      messages: [{ resourceTypeId: 'store', types: recorded }],
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[0]?.field, JSON.stringify(answer.body)).not.toBe('messages[0].types');
  });
});
