/**
 * "A workflow never leaves its kind": `transitions` never point at a State of another type. Drafts
 * and setTransitions check it, and `changeType` checks it both ways: the State's own transitions,
 * and the other States that list it as a transition target (a target cannot change its type under
 * them: 400 InvalidInput).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { callerWith, type Caller } from '../carts/commerce.js';

const P = 'state-change-type';

describe('changeType of a State that other States list in their transitions', () => {
  let gateway: TestGateway;
  let admin: Caller;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_states']);
  });
  afterAll(() => gateway.close());

  it('is refused (400) while a State of the old type lists it as a transition target', async () => {
    const target = await admin.ok(`/${P}/states`, { key: 'qr-review', type: 'QuoteRequestState' }, 201);
    await admin.ok(`/${P}/states`, { key: 'qr-new', type: 'QuoteRequestState', initial: true, transitions: [{ key: 'qr-review' }] }, 201);

    const changed = await admin.post(`/${P}/states/${target.id}`, { version: target.version, actions: [{ action: 'changeType', type: 'OrderState' }] });
    // Had it been accepted, 'qr-new' (a QuoteRequestState) would list an OrderState:
    const lister = await admin.read(`/${P}/states/key=qr-new?expand=transitions[*]`);
    const targetTypes = lister.transitions.map((reference: { obj?: { type: string } }) => reference.obj?.type);
    expect({ status: changed.status, targetTypes }).toEqual({ status: 400, targetTypes: ['QuoteRequestState'] });
  });
});
