// TEMPORARY smoke test with a header-driven authenticator; replaced by real-token tests.
import { openDatabase, ProjectStore } from '@herald/store';
import { ApiError } from '@herald/model';
import { describe, expect, it, vi } from 'vitest';
import { buildGateway } from '../../src/app.js';
import { defaultConfig } from '../../src/config/config.js';

describe('scratch', () => {
  it('works end to end', async () => {
    const db = await openDatabase('pglite://memory');
    await new ProjectStore(db).ensure('p1');
    const gateway = await buildGateway(defaultConfig(), {
      db,
      logger: (await import('pino')).pino({ level: 'error' }),
      authenticator: {
        async authenticate(request, projectKey, required) {
          const scopes = new Set(String(request.headers['x-scopes'] ?? '').split(' '));
          if (!required.anyOf.some((s) => scopes.has(s)) && !scopes.has('manage_project')) throw new ApiError(403, { code: 'insufficient_scope', message: 'no' });
          const customer = request.headers['x-customer'];
          return { projectKey, scopes, clientId: 'c', ...(typeof customer === 'string' ? { customerId: customer } : {}) };
        },
      },
    });
    const admin = { 'x-scopes': 'manage_project' };
    const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = admin) => {
      const res = await gateway.app.inject({ method, url, payload: payload as object, headers });
      return { status: res.statusCode, body: res.json() as Record<string, any> };
    };
    const cart = await call('POST', '/p1/carts', {
      currency: 'EUR',
      customerId: 'nobody',
    });
    console.log(cart);
    const cart2 = await call('POST', '/p1/me/carts', {
      currency: 'EUR',
      lineItems: [{ sku: 'A', name: { en: 'a' }, quantity: 2, externalPrice: { currencyCode: 'EUR', centAmount: 1000 } }],
      shippingAddress: { country: 'DE' },
    }, { 'x-scopes': 'manage_my_orders', 'x-customer': 'cust1' });
    console.log(JSON.stringify(cart2, null, 1));
    const state = await call('POST', '/p1/states', { key: 'st-1', type: 'QuoteRequestState', initial: true });
    console.log(state);
    const qr = await call('POST', '/p1/me/quote-requests', { cart: { id: cart2.body.id }, cartVersion: 1, key: 'qr-1' }, { 'x-scopes': 'manage_my_quote_requests', 'x-customer': 'cust1' });
    console.log(JSON.stringify(qr, null, 1));
    const up = await call('POST', `/p1/quote-requests/${qr.body.id}`, { version: 1, actions: [{ action: 'changeQuoteRequestState', quoteRequestState: 'Accepted' }, { action: 'transitionState', state: { key: 'st-1' } }] });
    console.log(JSON.stringify(up, null, 1));
    const msgs = await call('GET', `/p1/messages?sort=sequenceNumber&where=${encodeURIComponent('resource(typeId="quote-request")')}`);
    console.log(JSON.stringify(msgs.body.results.map((m: any) => [m.type, m.sequenceNumber, m.resourceVersion])));
    const one = await call('GET', `/p1/messages/${msgs.body.results[0].id}`, undefined, { 'x-scopes': 'view_stores' });
    console.log(one);
    const proj = await call('POST', `/p1`, { version: 1, actions: [{ action: 'changeMessagesConfiguration', messagesConfiguration: { enabled: false } }] });
    console.log(proj);
    await gateway.app.close();
    await db.close();
    expect(1).toBe(1);
  });
});
