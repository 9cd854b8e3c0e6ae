import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { callerWith, customerWithToken, type Caller, type Customer, type Json } from '../carts/commerce.js';
import { BUYER_SCOPES, submitQuoteRequest } from './fixtures.js';

const P = 'workflow-project';

/**
 * The workflow (§3.1): `initial-a` → `middle-b` → `open-c` (which defines no transitions);
 * `initial-d` defines none either; `empty-e` lists an empty array; `order-o` is another kind.
 */
describe('transitionState (§3.1)', () => {
  let gateway: TestGateway;
  let seller: Caller;
  let messages: Caller;
  let buyer: Customer;
  const state: Record<string, Json> = {};

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    seller = await callerWith(gateway, P, ['manage_quote_requests']);
    messages = await callerWith(gateway, P, ['view_messages']);
    const admin = await callerWith(gateway, P, ['manage_customers', 'manage_states']);
    buyer = await customerWithToken(gateway, P, admin, BUYER_SCOPES);
    // The reference's StateDraft makes a State initial unless `initial: false` says otherwise.
    const create = async (draft: Json) => {
      state[draft.key as string] = await admin.ok(`/${P}/states`, { type: 'QuoteRequestState', initial: false, ...draft }, 201);
    };
    await create({ key: 'open-c' });
    await create({ key: 'middle-b', transitions: [{ key: 'open-c' }] });
    await create({ key: 'initial-a', initial: true, transitions: [{ key: 'middle-b' }] });
    await create({ key: 'initial-d', initial: true });
    await create({ key: 'empty-e', transitions: [] });
    await create({ key: 'order-o', type: 'OrderState', initial: true });
  });
  afterAll(() => gateway.close());

  const ref = (key: string) => ({ typeId: 'state', id: state[key]?.id });

  async function transition(quoteRequest: Json, key: string, force?: boolean) {
    const action: Json = { action: 'transitionState', state: { typeId: 'state', key } };
    if (force !== undefined) action.force = force;
    return seller.post(`/${P}/quote-requests/${quoteRequest.id}`, { version: quoteRequest.version, actions: [action] });
  }

  async function expectMoved(quoteRequest: Json, key: string, force?: boolean): Promise<Json> {
    const answer = await transition(quoteRequest, key, force);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ version: quoteRequest.version + 1, state: ref(key), quoteRequestState: quoteRequest.quoteRequestState });
    return answer.body;
  }

  async function expectRefused(quoteRequest: Json, key: string, code = 'InvalidOperation', force?: boolean): Promise<void> {
    const answer = await transition(quoteRequest, key, force);
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.errors[0].code).toBe(code);
    const current = await seller.read(`/${P}/quote-requests/${quoteRequest.id}`);
    expect(current.version).toBe(quoteRequest.version);
    expect(current.state).toEqual(quoteRequest.state);
  }

  async function transitionMessages(quoteRequest: Json): Promise<Json[]> {
    const where = encodeURIComponent(`resource(id = "${quoteRequest.id}") and type = "QuoteRequestStateTransition"`);
    return (await messages.read(`/${P}/messages?where=${where}&sort=sequenceNumber%20asc&limit=100&withTotal=false`)).results;
  }

  describe('with no State yet', () => {
    it('accepts an initial State, with the message {state, force: false} and no oldState', async () => {
      const quoteRequest = await submitQuoteRequest(P, buyer);
      const moved = await expectMoved(quoteRequest, 'initial-a');
      const [message, ...more] = await transitionMessages(moved);
      expect(more).toEqual([]);
      expect(message).toMatchObject({ type: 'QuoteRequestStateTransition', state: ref('initial-a'), force: false, resourceVersion: 2 });
      expect(message).not.toHaveProperty('oldState');
    });

    it('refuses a non-initial State without force, and takes it with force', async () => {
      const quoteRequest = await submitQuoteRequest(P, buyer);
      await expectRefused(quoteRequest, 'middle-b');
      await expectRefused(quoteRequest, 'middle-b', 'InvalidOperation', false);
      const forced = await expectMoved(quoteRequest, 'middle-b', true);
      const [message] = await transitionMessages(forced);
      expect(message).toMatchObject({ state: ref('middle-b'), force: true });
    });
  });

  describe('from a State that defines transitions', () => {
    it('accepts a direct transition target and nothing else without force', async () => {
      const quoteRequest = await expectMoved(await submitQuoteRequest(P, buyer), 'initial-a');
      for (const key of ['open-c', 'initial-d', 'empty-e', 'initial-a']) await expectRefused(quoteRequest, key);
      const atB = await expectMoved(quoteRequest, 'middle-b');
      const atC = await expectMoved(atB, 'open-c');
      const [, second, third] = await transitionMessages(atC);
      expect(second).toMatchObject({ state: ref('middle-b'), oldState: ref('initial-a'), force: false });
      expect(third).toMatchObject({ state: ref('open-c'), oldState: ref('middle-b'), force: false });
    });

    it('accepts any State of quote requests with force', async () => {
      const quoteRequest = await expectMoved(await submitQuoteRequest(P, buyer), 'initial-a');
      const forced = await expectMoved(quoteRequest, 'open-c', true);
      const [, message] = await transitionMessages(forced);
      expect(message).toMatchObject({ state: ref('open-c'), oldState: ref('initial-a'), force: true });
    });
  });

  describe('from a State that defines none', () => {
    it('does not validate: any State follows, initial or not', async () => {
      let quoteRequest = await expectMoved(await submitQuoteRequest(P, buyer), 'initial-d');
      quoteRequest = await expectMoved(quoteRequest, 'middle-b', false);
      quoteRequest = await expectMoved(quoteRequest, 'open-c');
      // `open-c` defines none: back to any State, even the same one.
      quoteRequest = await expectMoved(quoteRequest, 'open-c');
      quoteRequest = await expectMoved(quoteRequest, 'empty-e', true);
      // An empty list defines none as well.
      await expectMoved(quoteRequest, 'initial-a');
    });

    it('treats a deleted current State as one that defines none', async () => {
      const admin = await callerWith(gateway, P, ['manage_states']);
      const doomed = await admin.ok(`/${P}/states`, { key: 'doomed', type: 'QuoteRequestState', initial: true, transitions: [{ key: 'open-c' }] }, 201);
      state.doomed = doomed;
      const quoteRequest = await expectMoved(await submitQuoteRequest(P, buyer), 'doomed');
      await expectRefused(quoteRequest, 'initial-d');
      await admin.delete(`/${P}/states/${doomed.id}?version=1`);
      await expectMoved(quoteRequest, 'initial-d');
    });
  });

  it('never moves to a State of another type, an unknown State, or with a malformed force', async () => {
    const quoteRequest = await submitQuoteRequest(P, buyer);
    await expectRefused(quoteRequest, 'order-o', 'InvalidInput');
    await expectRefused(quoteRequest, 'order-o', 'InvalidInput', true);
    await expectRefused(quoteRequest, 'no-such-state', 'ReferencedResourceNotFound', true);
    const malformed = await seller.post(`/${P}/quote-requests/${quoteRequest.id}`, {
      version: 1,
      actions: [{ action: 'transitionState', state: { key: 'initial-a' }, force: 'yes' }],
    });
    expect(malformed.status).toBe(400);
    const missing = await seller.post(`/${P}/quote-requests/${quoteRequest.id}`, { version: 1, actions: [{ action: 'transitionState' }] });
    expect(missing.status).toBe(400);
  });

  it('keeps the workflow State apart from quoteRequestState and from the buyer', async () => {
    const quoteRequest = await submitQuoteRequest(P, buyer);
    const answer = await buyer.caller.post(`/${P}/me/quote-requests/${quoteRequest.id}`, {
      version: 1,
      actions: [{ action: 'transitionState', state: { key: 'initial-a' } }],
    });
    expect(answer.status).toBe(400);
    const moved = await expectMoved(quoteRequest, 'initial-a');
    expect(moved.quoteRequestState).toBe('Submitted');
  });
});
