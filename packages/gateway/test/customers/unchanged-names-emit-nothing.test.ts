/**
 * An update action that changes nothing emits no message, so the version does not move and
 * neither a message nor a ResourceUpdated change notification goes to the subscribers
 * (DocumentStore.nextVersion skips such updates). Needless version bumps would also turn other
 * clients' concurrent updates into 409s (§9). Business units behave alike (business-units/actions.ts).
 *
 * Customers: setFirstName and setLastName with the current values (changeEmail already did).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { callerWith, type Caller } from '../carts/commerce.js';

const P = 'customer-unchanged-values';

describe('customer update actions that change nothing', () => {
  let gateway: TestGateway;
  let admin: Caller;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_project']);
  });
  afterAll(() => gateway.close());

  const outboxOf = async (id: string) =>
    (await gateway.db.query<{ kind: string }>("SELECT kind FROM outbox WHERE payload -> 'resource' ->> 'id' = $1", [id])).rows.length;

  it('customer setFirstName / setLastName with the current values keep the version and emit nothing', async () => {
    const customer = (await admin.ok(`/${P}/customers`, { email: 'same@example.com', password: 'pw', firstName: 'Ada', lastName: 'L' }, 201)).customer;
    const before = await outboxOf(customer.id);
    const same = await admin.update(`/${P}/customers/${customer.id}`, 1, [
      { action: 'setFirstName', firstName: 'Ada' },
      { action: 'setLastName', lastName: 'L' },
    ]);
    expect({ version: same.version, newEvents: (await outboxOf(customer.id)) - before }).toEqual({ version: 1, newEvents: 0 });
  });

  it('removing a name the customer does not have changes nothing either', async () => {
    const customer = (await admin.ok(`/${P}/customers`, { email: 'nameless@example.com', password: 'pw' }, 201)).customer;
    const same = await admin.update(`/${P}/customers/${customer.id}`, 1, [{ action: 'setFirstName' }, { action: 'setLastName' }]);
    expect(same.version).toBe(1);
  });
});
