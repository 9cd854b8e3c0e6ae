import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { callerWith, customerWithToken, type Caller, type Customer, type Json } from '../carts/commerce.js';
import { BUYER_SCOPES, buyerCart } from './fixtures.js';

const P = 'outbox-project';

interface OutboxRow {
  kind: 'message' | 'change';
  message_type: string | null;
  payload: Json;
}

/**
 * End to end as far as the delivery engine's input: what a quote request's life writes to the
 * transactional outbox, and that the Messages API serves the same messages. (A subscription-based
 * test follows once the engine routes the outbox.)
 */
describe('Quote request messages in the outbox and the Messages API', () => {
  let gateway: TestGateway;
  let seller: Caller;
  let messages: Caller;
  let buyer: Customer;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    seller = await callerWith(gateway, P, ['manage_quote_requests']);
    messages = await callerWith(gateway, P, ['view_quote_requests']);
    const admin = await callerWith(gateway, P, ['manage_customers', 'manage_states']);
    buyer = await customerWithToken(gateway, P, admin, BUYER_SCOPES);
    await admin.ok(`/${P}/states`, { key: 'in-review', type: 'QuoteRequestState', initial: true }, 201);
  });
  afterAll(() => gateway.close());

  async function outboxOf(resourceId: string): Promise<OutboxRow[]> {
    const result = await gateway.db.query<OutboxRow>(
      "SELECT kind, message_type, payload FROM outbox WHERE project_key = $1 AND resource_type_id = 'quote-request' AND payload -> 'resource' ->> 'id' = $2 ORDER BY seq",
      [P, resourceId],
    );
    return result.rows;
  }

  it('QuoteRequestCreated → QuoteRequestStateChanged → QuoteRequestStateTransition, numbered 1, 2, 3', async () => {
    const cart = await buyerCart(P, buyer);
    const created = await buyer.caller.ok(`/${P}/me/quote-requests`, { cart: { id: cart.id }, cartVersion: 1, key: 'e2e-quote' }, 201);
    const url = `/${P}/quote-requests/${created.id}`;
    const accepted = await seller.update(url, 1, [{ action: 'changeQuoteRequestState', quoteRequestState: 'Accepted' }]);
    const transitioned = await seller.update(url, accepted.version, [{ action: 'transitionState', state: { key: 'in-review' } }]);
    expect(transitioned.version).toBe(3);

    const rows = await outboxOf(created.id);
    const messageRows = rows.filter((row) => row.kind === 'message');
    expect(messageRows.map((row) => [row.message_type, row.payload.sequenceNumber, row.payload.resourceVersion])).toEqual([
      ['QuoteRequestCreated', 1, 1],
      ['QuoteRequestStateChanged', 2, 2],
      ['QuoteRequestStateTransition', 3, 3],
    ]);
    const [createdMessage, changedMessage, transitionMessage] = messageRows.map((row) => row.payload);
    expect(createdMessage).toMatchObject({
      notificationType: 'Message',
      projectKey: P,
      resource: { typeId: 'quote-request', id: created.id },
      resourceUserProvidedIdentifiers: { key: 'e2e-quote' },
      quoteRequest: created,
    });
    expect(changedMessage).toMatchObject({ quoteRequestState: 'Accepted', oldQuoteRequestState: 'Submitted' });
    expect(transitionMessage).toMatchObject({ state: transitioned.state, force: false });
    // Every write is one transaction: its change notification sits right after its messages.
    expect(rows.map((row) => (row.kind === 'message' ? row.message_type : row.payload.notificationType))).toEqual([
      'QuoteRequestCreated',
      'ResourceCreated',
      'QuoteRequestStateChanged',
      'ResourceUpdated',
      'QuoteRequestStateTransition',
      'ResourceUpdated',
    ]);

    // The Messages API returns exactly these messages (without the delivery envelope fields).
    const where = encodeURIComponent(`resource(id = "${created.id}")`);
    const served = await messages.read(`/${P}/messages?where=${where}&sort=sequenceNumber%20asc&withTotal=false`);
    expect(served.results).toEqual(
      messageRows.map(({ payload }) => {
        const { notificationType: _type, projectKey: _project, ...message } = payload;
        return message;
      }),
    );
  });

  it('numbers the messages of several actions in one update consecutively, with one resource version', async () => {
    const cart = await buyerCart(P, buyer);
    const created = await seller.ok(`/${P}/quote-requests`, { cart: { id: cart.id }, cartVersion: 1 }, 201);
    await seller.update(`/${P}/quote-requests/${created.id}`, 1, [
      { action: 'transitionState', state: { key: 'in-review' } },
      { action: 'changeQuoteRequestState', quoteRequestState: 'Rejected' },
    ]);
    const refused = await seller.post(`/${P}/quote-requests/${created.id}`, {
      version: 2,
      // A refused move (no quote request goes back to Submitted) writes no message.
      actions: [{ action: 'changeQuoteRequestState', quoteRequestState: 'Submitted' }],
    });
    expect(refused.status).toBe(400);
    const deleted = await seller.delete(`/${P}/quote-requests/${created.id}?version=2`);
    expect(deleted.status).toBe(200);

    const rows = (await outboxOf(created.id)).filter((row) => row.kind === 'message');
    expect(rows.map((row) => [row.message_type, row.payload.sequenceNumber, row.payload.resourceVersion])).toEqual([
      ['QuoteRequestCreated', 1, 1],
      ['QuoteRequestStateTransition', 2, 2],
      ['QuoteRequestStateChanged', 3, 2],
      ['QuoteRequestDeleted', 4, 2],
    ]);
  });
});
