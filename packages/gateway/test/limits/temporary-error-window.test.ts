/**
 * §8 "Retry windows: 48 hours (TemporaryError)" (§6.2 guarantee 1) through the gateway's
 * HTTP API (the ConfigurationError windows of 1 h and 24 h are covered over HTTP by
 * test/subscriptions/health.test.ts; the 48 h window only at the engine level): a destination that
 * keeps failing temporarily keeps its delivery pending (503 TemporaryError) for 48 hours after the
 * first failure, and then it is dropped with TemporaryErrorWindowElapsed, visible in `/dropped`.
 */
import { startEventBridgePeer, type EventBridgePeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startEventBridgePartnerShim, type EventBridgePartnerShim } from '../compat/eventbridge-partner-shim.js';
import { ManualClock } from '../support/clock.js';
import { startTestGateway, type TestDelivery, type TestGateway } from '../support/gateway.js';
import { EVENTBRIDGE_CREDENTIALS, eventually, healthOf, waitForHealth, WAIT_MS } from '../subscriptions/support.js';

const P = 'limits-temporary-window';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('§8 TemporaryError retry window (48 hours) over HTTP', { timeout: 60_000 }, () => {
  const clock = new ManualClock('2025-06-01T08:00:00.000Z');
  let eventBridge: EventBridgePeer;
  let shim: EventBridgePartnerShim;
  let gateway: TestGateway;
  let delivery: TestDelivery;
  let api: Caller;

  beforeAll(async () => {
    eventBridge = await startEventBridgePeer({ accessKeyId: EVENTBRIDGE_CREDENTIALS.accessKeyId, partnerEventSources: [] });
    shim = await startEventBridgePartnerShim(eventBridge);
    gateway = await startTestGateway({
      projects: [P],
      clock,
      config: { oauth: { accessTokenTtlSeconds: 31_536_000 } },
      delivery: {
        environment: {
          endpoints: { eventBridge: shim.endpoint },
          eventBridge: { credentials: EVENTBRIDGE_CREDENTIALS, createPartnerEventSources: true },
          timeouts: { sendMs: 10_000 },
        },
        worker: { leaseMs: 30 * 24 * HOUR },
      },
    });
    delivery = gateway.delivery as TestDelivery;
    api = await callerWith(gateway, P, ['manage_subscriptions', 'manage_stores']);
  });
  afterAll(async () => {
    await gateway?.close();
    await shim?.stop();
    await eventBridge?.stop();
  });

  const status = (id: string): Promise<Json> => api.read(`/${P}/subscriptions/${id}/delivery-status`);
  const dropped = (id: string): Promise<Json> => api.read(`/${P}/subscriptions/${id}/dropped?withTotal=true`);

  /** Moves the clock by `ms` and waits until the retry that became due has been tried (and rescheduled). */
  async function advance(ms: number): Promise<void> {
    clock.advance(ms);
    delivery.worker.wake();
    await delivery.worker.engine.maintenance.runOnce();
  }

  it('keeps a temporarily failing delivery pending for 48 hours, then drops it with TemporaryErrorWindowElapsed', async () => {
    const subscription = await api.ok(
      `/${P}/subscriptions`,
      { destination: { type: 'EventBridge', region: 'eu-central-1', accountId: '123456789012' }, changes: [{ resourceTypeId: 'store' }] },
      201,
    );
    await eventBridge.waitFor(1, WAIT_MS);
    eventBridge.faults.inject({ kind: 'server-error' });
    await api.ok(`/${P}/stores`, { key: 'window-1' }, 201);
    await waitForHealth(gateway, P, subscription.id, 503);
    const firstFailure = clock.now().getTime();

    // Up to 47 h 50 min after the first failure: retried, still pending, nothing dropped.
    while (clock.now().getTime() - firstFailure < 47 * HOUR + 50 * MINUTE) {
      await advance(Math.min(5 * HOUR, 47 * HOUR + 50 * MINUTE - (clock.now().getTime() - firstFailure)));
      await eventually(async () => expect(await status(subscription.id)).toMatchObject({ pendingCount: 1, lastError: { class: 'temporary' } }));
      expect((await dropped(subscription.id)).total, `at ${(clock.now().getTime() - firstFailure) / HOUR} h`).toBe(0);
    }
    expect((await healthOf(gateway, P, subscription.id)).status).toBe(503);

    // Past 48 h: dropped, with the reason, and no longer pending.
    await eventually(async () => {
      await advance(10 * MINUTE);
      expect((await dropped(subscription.id)).total).toBe(1);
    });
    const page = await dropped(subscription.id);
    expect(page.results[0]).toMatchObject({ reason: 'TemporaryErrorWindowElapsed' });
    expect(clock.now().getTime() - firstFailure).toBeGreaterThanOrEqual(48 * HOUR);
    expect(clock.now().getTime() - firstFailure).toBeLessThanOrEqual(49 * HOUR);
    expect((await status(subscription.id)).pendingCount).toBe(0);
    eventBridge.faults.clear();
  });
});
