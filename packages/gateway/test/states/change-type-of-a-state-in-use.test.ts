/**
 * A quote request's workflow `state` stays a QuoteRequestState: changeType of a State a quote
 * request is in is refused (transitionState checks the type on the way in). Deleting a State in
 * use stays allowed: transitionState treats a deleted current State as one that defines no
 * transitions (quote-requests/transition-state.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { callerWith, customerWithToken, type Caller } from '../carts/commerce.js';
import { BUYER_SCOPES, submitQuoteRequest } from '../quote-requests/fixtures.js';

const P = 'states-in-use';

describe('changeType of a State that quote requests are in', () => {
  let gateway: TestGateway;
  let admin: Caller;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_project']);
  });
  afterAll(() => gateway.close());

  it('a State a quote request is in keeps its type until the quote request leaves it', async () => {
    const review = await admin.ok(`/${P}/states`, { key: 'in-review', type: 'QuoteRequestState', initial: true }, 201);
    await admin.ok(`/${P}/states`, { key: 'closed', type: 'QuoteRequestState' }, 201);
    const buyer = await customerWithToken(gateway, P, admin, BUYER_SCOPES);
    let quoteRequest = await submitQuoteRequest(P, buyer);
    quoteRequest = await admin.update(`/${P}/quote-requests/${quoteRequest.id}`, quoteRequest.version, [
      { action: 'transitionState', state: { typeId: 'state', key: 'in-review' } },
    ]);

    const changed = await admin.post(`/${P}/states/${review.id}`, { version: review.version, actions: [{ action: 'changeType', type: 'OrderState' }] });
    expect(changed.status).toBe(400);
    expect(changed.body.errors[0]).toMatchObject({ code: 'InvalidInput', field: 'type' });
    expect((await admin.read(`/${P}/states/${review.id}`)).type).toBe('QuoteRequestState');

    await admin.update(`/${P}/quote-requests/${quoteRequest.id}`, quoteRequest.version, [
      { action: 'transitionState', state: { typeId: 'state', key: 'closed' }, force: true },
    ]);
    const retyped = await admin.update(`/${P}/states/${review.id}`, review.version, [{ action: 'changeType', type: 'OrderState' }]);
    expect(retyped.type).toBe('OrderState');
  });
});
