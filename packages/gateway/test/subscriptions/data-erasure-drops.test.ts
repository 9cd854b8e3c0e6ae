/**
 * §4.4.9 data erasure reaches the dropped deliveries: `DELETE …?dataErasure=true` removes the
 * resource's messages from the Messages API, and must also remove the copies of its events kept in
 * `dropped_deliveries` (14 days, with their payload: a CustomerCreated message holds the e-mail).
 * Otherwise the personal data stays listable under `/dropped`, and a replay after the erasure
 * sends it to the destination again.
 *
 * Drops are produced end to end: the EventBridge peer refuses every entry as too large, which the
 * engine drops at once (PayloadError) without touching the subscription's health.
 */
import { startEventBridgePeer, type EventBridgePeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startEventBridgePartnerShim, type EventBridgePartnerShim } from '../compat/eventbridge-partner-shim.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { EVENTBRIDGE_CREDENTIALS, eventually, expectTestNotification, labels, WAIT_MS } from './support.js';

const P = 'erasure-drops';

describe('DELETE with dataErasure and the dropped deliveries of the resource', { timeout: 60_000 }, () => {
  let eventBridge: EventBridgePeer;
  let shim: EventBridgePartnerShim;
  let gateway: TestGateway;
  let api: Caller;

  beforeAll(async () => {
    eventBridge = await startEventBridgePeer({ accessKeyId: EVENTBRIDGE_CREDENTIALS.accessKeyId, partnerEventSources: [] });
    shim = await startEventBridgePartnerShim(eventBridge);
    gateway = await startTestGateway({
      projects: [P],
      delivery: {
        environment: {
          endpoints: { eventBridge: shim.endpoint },
          // The shim answers CreatePartnerEventSource for the peer, which models PutPartnerEvents only.
          eventBridge: { credentials: EVENTBRIDGE_CREDENTIALS, createPartnerEventSources: true },
          timeouts: { sendMs: 10_000 },
        },
      },
    });
    api = await callerWith(gateway, P, ['manage_subscriptions', 'manage_customers']);
  });

  afterAll(async () => {
    await gateway?.close();
    await shim?.stop();
    await eventBridge?.stop();
  });

  it('removes the erased resource’s dropped deliveries, so that a replay cannot send its data again', async () => {
    const subscription = await api.ok(
      `/${P}/subscriptions`,
      {
        destination: { type: 'EventBridge', region: 'eu-central-1', accountId: '123456789012' },
        changes: [{ resourceTypeId: 'customer' }],
        messages: [{ resourceTypeId: 'customer', types: ['CustomerCreated'] }],
      },
      201,
    );
    expectTestNotification((await eventBridge.waitFor(1, WAIT_MS))[0]?.Detail as Json, P, subscription);
    const url = `/${P}/subscriptions/${subscription.id}`;

    // Every event of both customers is dropped (PayloadError): a ResourceCreated and a CustomerCreated each.
    eventBridge.faults.inject({ kind: 'payload-too-large' });
    const erasedEmail = 'erase-me@example.com';
    const erased = (await api.ok(`/${P}/customers`, { email: erasedEmail, password: 'pw', firstName: 'Erika' }, 201)).customer;
    const kept = (await api.ok(`/${P}/customers`, { email: 'keep-me@example.com', password: 'pw' }, 201)).customer;
    await eventually(async () => expect((await api.read(`${url}/dropped?withTotal=true`)).total).toBe(4));
    const before = await api.read(`${url}/dropped`);
    expect((before.results as Json[]).every((record) => record.reason === 'PayloadError')).toBe(true);
    expect(JSON.stringify(before.results)).toContain(erasedEmail);
    eventBridge.faults.clear();

    expect((await api.delete(`/${P}/customers/${erased.id}?version=${erased.version}&dataErasure=true`)).status).toBe(200);

    // The erased customer's drops are gone; the other customer's stay.
    const after = await api.read(`${url}/dropped?withTotal=true`);
    expect(JSON.stringify(after.results)).not.toContain(erasedEmail);
    expect((after.results as Json[]).map((record) => record.payload.resource)).toEqual([
      { typeId: 'customer', id: kept.id },
      { typeId: 'customer', id: kept.id },
    ]);

    // Replaying everything sends only what was kept, plus the erasure's own ResourceDeleted.
    expect(await api.ok(`${url}/dropped/replay`, {})).toEqual({ replayed: 2 });
    const arrived = (await eventBridge.waitFor(4, WAIT_MS)).slice(1).map((event) => event.Detail as Json);
    expect(labels(arrived)).toEqual(
      [`customer:${kept.id}:ResourceCreated:1`, `customer:${kept.id}:Message:CustomerCreated:1`, `customer:${erased.id}:ResourceDeleted:1`].sort(),
    );
    expect(arrived.find((payload) => payload.notificationType === 'ResourceDeleted')).toMatchObject({ dataErasure: true });
    expect(JSON.stringify(arrived)).not.toContain(erasedEmail);
    expect((await api.read(`${url}/dropped?withTotal=true`)).total).toBe(0);
  });
});
