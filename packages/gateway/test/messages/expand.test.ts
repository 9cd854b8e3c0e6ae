/**
 * §4.4.7 reference expansion on the Messages API: a message's `resource` is a Reference, expanded
 * with `expand=resource` on the query and on GET by id. The expand list is checked as on every
 * other query endpoint (400 beyond MAX_EXPAND_PATHS), and expansion follows the token's scopes:
 * reading messages is no way to read the resources themselves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { callerWith, type Caller } from '../carts/commerce.js';

const P = 'messages-expand';

describe('GET /{projectKey}/messages?expand=resource', () => {
  let gateway: TestGateway;
  let admin: Caller;
  let storeId: string;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_project']);
    storeId = (await admin.ok(`/${P}/stores`, { key: 'berlin', name: { en: 'Berlin' } }, 201)).id;
  });
  afterAll(() => gateway.close());

  it('expands the message resource reference in a query', async () => {
    const page = await admin.read(`/${P}/messages?expand=resource&where=${encodeURIComponent(`resource(id = "${storeId}")`)}`);
    expect(page.results).toHaveLength(1);
    expect(page.results[0].resource).toMatchObject({ typeId: 'store', id: storeId, obj: { key: 'berlin' } });
  });

  it('expands it on GET /messages/{id} too', async () => {
    const page = await admin.read(`/${P}/messages?where=${encodeURIComponent(`resource(id = "${storeId}")`)}`);
    const one = await admin.read(`/${P}/messages/${page.results[0].id}?expand=resource`);
    expect(one.resource).toMatchObject({ typeId: 'store', id: storeId, obj: { key: 'berlin' } });
  });

  it('refuses more expand parameters than allowed with 400, as the other query endpoints do', async () => {
    const many = Array.from({ length: 11 }, (_, index) => `expand=resource${index}`).join('&');
    const stores = await admin.get(`/${P}/stores?${many}`);
    expect(stores.status).toBe(400);
    const messages = await admin.get(`/${P}/messages?${many}`);
    expect(messages.status, JSON.stringify(messages.body).slice(0, 200)).toBe(400);
  });

  it('leaves the reference unexpanded for a token without the view scope of its type', async () => {
    const reader = await callerWith(gateway, P, ['view_messages']);
    const where = encodeURIComponent(`resource(id = "${storeId}")`);
    const page = await reader.read(`/${P}/messages?expand=resource&where=${where}`);
    expect(page.results[0].resource).toEqual({ typeId: 'store', id: storeId });
    const one = await reader.read(`/${P}/messages/${page.results[0].id}?expand=resource`);
    expect(one.resource).toEqual({ typeId: 'store', id: storeId });
  });
});
