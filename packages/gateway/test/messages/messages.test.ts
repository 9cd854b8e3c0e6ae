import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupExpiredMessages } from '../../src/resources/messages/cleanup.js';
import { ManualClock } from '../support/clock.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { callerWith, customerWithToken, type Caller, type Customer, type Json } from '../carts/commerce.js';
import { BUYER_SCOPES, changeState, submitQuoteRequest } from '../quote-requests/fixtures.js';

const P = 'messages-project';
const DAY = 24 * 60 * 60 * 1000;

const byResource = (id: string) => `where=${encodeURIComponent(`resource(id = "${id}")`)}`;

describe('Messages API /{projectKey}/messages', () => {
  let gateway: TestGateway;
  let clock: ManualClock;
  let all: Caller;
  let seller: Caller;
  let settings: Caller;
  let buyer: Customer;
  let project: Json;

  /** Fresh tokens: the tests move the clock by days, past the tokens' two-day lifetime. */
  async function issueTokens(): Promise<void> {
    all = await callerWith(gateway, P, ['view_messages']);
    seller = await callerWith(gateway, P, ['manage_quote_requests', 'manage_stores']);
    settings = await callerWith(gateway, P, ['manage_project_settings']);
    const admin = await callerWith(gateway, P, ['manage_customers']);
    buyer = await customerWithToken(gateway, P, admin, BUYER_SCOPES);
  }

  beforeAll(async () => {
    clock = new ManualClock('2026-03-01T12:00:00.000Z');
    gateway = await startTestGateway({ projects: [P], clock });
    await issueTokens();
    project = await settings.read(`/${P}`);
  });
  afterAll(() => gateway.close());

  async function configure(messagesConfiguration: Json) {
    const answer = await settings.post(`/${P}`, { version: project.version, actions: [{ action: 'changeMessagesConfiguration', messagesConfiguration }] });
    if (answer.status === 200) project = answer.body;
    return answer;
  }

  it('serves every message with the common fields and its payload', async () => {
    const quoteRequest = await submitQuoteRequest(P, buyer, { key: 'qr-fields' });
    const page = await all.read(`/${P}/messages?${byResource(quoteRequest.id)}`);
    expect(page).toMatchObject({ count: 1, total: 1, offset: 0, limit: 20 });
    const [message] = page.results;
    expect(message).toEqual({
      id: expect.any(String),
      version: 1,
      sequenceNumber: 1,
      resource: { typeId: 'quote-request', id: quoteRequest.id },
      resourceVersion: 1,
      resourceUserProvidedIdentifiers: { key: 'qr-fields' },
      type: 'QuoteRequestCreated',
      createdAt: quoteRequest.createdAt,
      lastModifiedAt: quoteRequest.createdAt,
      createdBy: expect.objectContaining({ customer: { typeId: 'customer', id: buyer.id } }),
      lastModifiedBy: expect.objectContaining({ customer: { typeId: 'customer', id: buyer.id } }),
      quoteRequest,
    });
    expect(await all.read(`/${P}/messages/${message.id}`)).toEqual(message);
    expect((await all.get(`/${P}/messages/no-such-message`)).status).toBe(404);
  });

  it('filters, sorts and pages with where, var.*, sort, limit, offset and withTotal', async () => {
    const quoteRequest = await submitQuoteRequest(P, buyer);
    const accepted = await changeState(seller, `/${P}/quote-requests/${quoteRequest.id}`, 1, 'Accepted');
    await changeState(seller, `/${P}/quote-requests/${quoteRequest.id}`, accepted.body.version, 'Closed');

    const resource = byResource(quoteRequest.id);
    const ordered = await all.read(`/${P}/messages?${resource}&sort=sequenceNumber%20desc&withTotal=false`);
    expect(ordered.results.map((m: Json) => [m.sequenceNumber, m.type, m.quoteRequestState ?? null])).toEqual([
      [3, 'QuoteRequestStateChanged', 'Closed'],
      [2, 'QuoteRequestStateChanged', 'Accepted'],
      [1, 'QuoteRequestCreated', null],
    ]);
    expect(ordered.results[0]).toMatchObject({ oldQuoteRequestState: 'Accepted', resourceVersion: 3 });

    const typedWhere = `${resource}&where=${encodeURIComponent('type = :type')}&var.type=QuoteRequestStateChanged`;
    const typed = await all.read(`/${P}/messages?${typedWhere}&sort=sequenceNumber%20asc&limit=1&offset=1&withTotal=false`);
    expect(typed).toMatchObject({ count: 1, limit: 1, offset: 1 });
    expect(typed.results[0].sequenceNumber).toBe(3);
    expect(await all.read(`/${P}/messages?${typedWhere}&limit=1`)).toMatchObject({ count: 1, total: 2 });

    expect((await all.get(`/${P}/messages?where=${encodeURIComponent('type = ')}`)).status).toBe(400);
    expect((await all.get(`/${P}/messages?limit=0`)).status).toBe(400);
  });

  describe('access', () => {
    let quoteRequestMessage: Json;
    let storeMessage: Json;

    beforeAll(async () => {
      const quoteRequest = await submitQuoteRequest(P, buyer);
      quoteRequestMessage = (await all.read(`/${P}/messages?${byResource(quoteRequest.id)}`)).results[0];
      const store = await seller.ok(`/${P}/stores`, { key: 'msg-store' }, 201);
      storeMessage = (await all.read(`/${P}/messages?${byResource(store.id)}`)).results[0];
      expect(storeMessage.type).toBe('StoreCreated');
    });

    const typesSeenBy = async (caller: Caller) => {
      const page = await caller.read(`/${P}/messages?limit=500&withTotal=false`);
      return new Set(page.results.map((message: Json) => message.resource.typeId));
    };

    it('view_messages and manage_project read every message', async () => {
      // Customers were created for the buyers: their CustomerCreated messages are there too.
      const everything = new Set(['customer', 'quote-request', 'store']);
      expect(await typesSeenBy(all)).toEqual(everything);
      expect(await typesSeenBy(await callerWith(gateway, P, ['manage_project']))).toEqual(everything);
    });

    it("a resource's view scope reads that resource type's messages only", async () => {
      const quoteRequests = await callerWith(gateway, P, ['view_quote_requests']);
      expect(await typesSeenBy(quoteRequests)).toEqual(new Set(['quote-request']));
      expect((await quoteRequests.get(`/${P}/messages/${quoteRequestMessage.id}`)).status).toBe(200);
      expect((await quoteRequests.get(`/${P}/messages/${storeMessage.id}`)).status).toBe(404);

      const stores = await callerWith(gateway, P, ['manage_stores']);
      expect(await typesSeenBy(stores)).toEqual(new Set(['store']));
      expect((await stores.get(`/${P}/messages/${storeMessage.id}`)).status).toBe(200);
      expect((await stores.get(`/${P}/messages/${quoteRequestMessage.id}`)).status).toBe(404);

      const carts = await callerWith(gateway, P, ['view_orders']);
      expect(await typesSeenBy(carts)).toEqual(new Set());
    });

    it('refuses tokens without any of those scopes', async () => {
      const other = await callerWith(gateway, P, ['manage_my_orders']);
      expect((await other.get(`/${P}/messages`)).status).toBe(403);
      expect((await other.get(`/${P}/messages/${storeMessage.id}`)).status).toBe(403);
      expect((await buyer.caller.get(`/${P}/messages`)).status).toBe(403);
    });
  });

  describe('changeMessagesConfiguration', () => {
    it('validates the configuration', async () => {
      for (const bad of [
        {},
        { enabled: 'yes' },
        { enabled: true, deleteDaysAfterCreation: 0 },
        { enabled: true, deleteDaysAfterCreation: 91 },
        { enabled: true, deleteDaysAfterCreation: 1.5 },
      ]) {
        const answer = await configure(bad);
        expect(answer.status, JSON.stringify(bad)).toBe(400);
        expect(answer.body.errors[0].code).toBe('InvalidInput');
      }
      const noScope = await all.post(`/${P}`, {
        version: project.version,
        actions: [{ action: 'changeMessagesConfiguration', messagesConfiguration: { enabled: true } }],
      });
      expect(noScope.status).toBe(403);
      const defaults = await configure({ enabled: true, deleteDaysAfterCreation: 90 });
      expect(defaults.body.messages).toEqual({ enabled: true, deleteDaysAfterCreation: 90 });
      expect((await configure({ enabled: true })).body.messages).toEqual({ enabled: true, deleteDaysAfterCreation: 15 });
    });

    it('when disabled, keeps delivering messages through the outbox but no longer serves them', async () => {
      await configure({ enabled: false, deleteDaysAfterCreation: 15 });
      const hidden = await submitQuoteRequest(P, buyer);
      expect((await all.read(`/${P}/messages?${byResource(hidden.id)}`)).results).toEqual([]);
      const outbox = await gateway.db.query<{ payload: Json }>("SELECT payload FROM outbox WHERE kind = 'message' AND payload -> 'resource' ->> 'id' = $1", [
        hidden.id,
      ]);
      expect(outbox.rows.map((row) => [row.payload.type, row.payload.sequenceNumber])).toEqual([['QuoteRequestCreated', 1]]);

      await configure({ enabled: true });
      const accepted = await changeState(seller, `/${P}/quote-requests/${hidden.id}`, 1, 'Accepted');
      expect(accepted.status).toBe(200);
      const served = await all.read(`/${P}/messages?${byResource(hidden.id)}`);
      expect(served.results.map((m: Json) => [m.type, m.sequenceNumber])).toEqual([['QuoteRequestStateChanged', 2]]);
    });
  });

  it('deleting with dataErasure removes the messages of the resource', async () => {
    const quoteRequest = await submitQuoteRequest(P, buyer);
    const deleted = await seller.delete(`/${P}/quote-requests/${quoteRequest.id}?version=1&dataErasure=true`);
    expect(deleted.status).toBe(200);
    expect((await all.read(`/${P}/messages?${byResource(quoteRequest.id)}`)).results).toEqual([]);

    const kept = await submitQuoteRequest(P, buyer);
    await seller.delete(`/${P}/quote-requests/${kept.id}?version=1`);
    const page = await all.read(`/${P}/messages?${byResource(kept.id)}&sort=createdAt%20asc`);
    expect(page.results.map((m: Json) => [m.type, m.sequenceNumber])).toEqual(
      expect.arrayContaining([
        ['QuoteRequestCreated', 1],
        ['QuoteRequestDeleted', 2],
      ]),
    );
  });
  describe('expiry', () => {
    it('hides messages older than deleteDaysAfterCreation, and cleanupExpiredMessages deletes them', async () => {
      await configure({ enabled: true, deleteDaysAfterCreation: 2 });
      const old = await submitQuoteRequest(P, buyer);
      clock.advance(DAY);
      await issueTokens();
      const recent = await submitQuoteRequest(P, buyer);
      const visible = async (id: string) => (await all.read(`/${P}/messages?${byResource(id)}`)).count as number;
      const stored = async (id: string) => (await gateway.db.query('SELECT 1 FROM messages WHERE resource_id = $1', [id])).rows.length;
      const oldMessage = (await all.read(`/${P}/messages?${byResource(old.id)}`)).results[0] as Json;

      // Exactly two days after creation the message is still there; a millisecond later it is not.
      clock.advance(DAY);
      await issueTokens();
      expect(await visible(old.id)).toBe(1);
      expect(await cleanupExpiredMessages(gateway.db, clock)).toBe(0);
      clock.advance(1);
      expect(await visible(old.id)).toBe(0);
      expect((await all.get(`/${P}/messages/${oldMessage.id}`)).status).toBe(404);
      expect(await visible(recent.id)).toBe(1);
      expect(await stored(old.id)).toBe(1);

      expect(await cleanupExpiredMessages(gateway.db, clock)).toBeGreaterThanOrEqual(1);
      expect(await stored(old.id)).toBe(0);
      expect(await stored(recent.id)).toBe(1);

      // A longer retention keeps what is still within it.
      await configure({ enabled: true, deleteDaysAfterCreation: 90 });
      clock.advance(30 * DAY);
      await issueTokens();
      expect(await cleanupExpiredMessages(gateway.db, clock)).toBe(0);
      expect(await visible(recent.id)).toBe(1);
    });
  });
});
