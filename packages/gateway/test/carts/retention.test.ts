import { startSqsPeer, type SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteExpiredCarts } from '../../src/resources/carts/retention.js';
import { ManualClock } from '../support/clock.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { eventually, labels, REGION, sqsDestination, sqsDocuments } from '../subscriptions/support.js';
import { callerWith, type Caller, type Json } from './commerce.js';

const P = 'cart-retention';
const DAY = 24 * 60 * 60 * 1000;
const SCOPES = ['manage_orders', 'manage_project_settings', 'manage_subscriptions'];

/**
 * §8 Automatic cleanup: carts unused for a number of days are deleted — the cart's own
 * `deleteDaysAfterLastModification`, from its draft or the project's default, counted again from
 * every modification — and subscribers hear of it like of any delete.
 */
describe('Carts are deleted after deleteDaysAfterLastModification days without a modification', { timeout: 60_000 }, () => {
  let sqs: SqsPeer;
  let clock: ManualClock;
  let gateway: TestGateway;
  let api: Caller;

  beforeAll(async () => {
    sqs = await startSqsPeer({ region: REGION });
    clock = new ManualClock();
    gateway = await startTestGateway({ projects: [P], clock, delivery: { environment: { endpoints: { sqs: sqs.endpoint } } } });
    api = await callerWith(gateway, P, SCOPES);
  });

  afterAll(async () => {
    await gateway?.close();
    await sqs?.stop();
  });

  let subscriptionId: string | undefined;

  /** Nothing routed to the subscription is waiting: the deliveries so far have arrived. */
  async function delivered(): Promise<void> {
    if (subscriptionId === undefined) return;
    await eventually(async () => {
      expect(await api.read(`/${P}/subscriptions/${subscriptionId}/delivery-status`)).toMatchObject({ pendingCount: 0 });
    });
  }

  /**
   * Moves the clock once what is under way was delivered (a day's jump during a send would expire
   * its lease and send it twice); tokens live two days, so a fresh one is issued.
   */
  async function advance(milliseconds: number): Promise<void> {
    await delivered();
    clock.advance(milliseconds);
    api = await callerWith(gateway, P, SCOPES);
  }

  const createCart = (extra: Json = {}) => api.ok(`/${P}/carts`, { currency: 'EUR', ...extra }, 201);

  it('takes the days from the draft, else from the project (90 unless changeCartsConfiguration set them), and validates them', async () => {
    const byDefault = await createCart();
    expect(byDefault.deleteDaysAfterLastModification).toBe(90);
    expect((await createCart({ deleteDaysAfterLastModification: 400 })).deleteDaysAfterLastModification).toBe(400);
    for (const invalid of [0, 1.5, '3', 365_251]) {
      const answer = await api.post(`/${P}/carts`, { currency: 'EUR', deleteDaysAfterLastModification: invalid });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.errors[0]).toMatchObject({ code: 'InvalidInput', field: 'deleteDaysAfterLastModification' });
    }

    const project = await api.read(`/${P}`);
    expect(project.carts).toMatchObject({ deleteDaysAfterLastModification: 90 });
    const refused = await api.post(`/${P}`, {
      version: project.version,
      actions: [{ action: 'changeCartsConfiguration', cartsConfiguration: { deleteDaysAfterLastModification: 0 } }],
    });
    expect(refused.status).toBe(400);
    const changed = await api.update(`/${P}`, project.version, [
      { action: 'changeCartsConfiguration', cartsConfiguration: { deleteDaysAfterLastModification: 30 } },
    ]);
    expect(changed.carts).toMatchObject({ deleteDaysAfterLastModification: 30 });
    expect((await createCart()).deleteDaysAfterLastModification).toBe(30);
    // Existing carts keep theirs; the update action sets a value, or the project's without one.
    expect((await api.read(`/${P}/carts/${byDefault.id}`)).deleteDaysAfterLastModification).toBe(90);
    const set = await api.update(`/${P}/carts/${byDefault.id}`, byDefault.version, [
      { action: 'setDeleteDaysAfterLastModification', deleteDaysAfterLastModification: 5 },
    ]);
    expect(set.deleteDaysAfterLastModification).toBe(5);
    const reset = await api.update(`/${P}/carts/${byDefault.id}`, set.version, [{ action: 'setDeleteDaysAfterLastModification' }]);
    expect(reset.deleteDaysAfterLastModification).toBe(30);
  });

  it('deletes a cart once its days have passed since its last modification, with a ResourceDeleted notification', async () => {
    const queue = sqs.createQueue('cart-changes');
    const subscription = await api.ok(`/${P}/subscriptions`, { destination: sqsDestination(queue), changes: [{ resourceTypeId: 'cart' }] }, 201);
    subscriptionId = subscription.id as string;
    const untouched = await createCart({ deleteDaysAfterLastModification: 2 });
    const touched = await createCart({ deleteDaysAfterLastModification: 2 });
    const documents = gateway.gateway.documents;

    await advance(DAY);
    const modified = await api.update(`/${P}/carts/${touched.id}`, 1, [{ action: 'setCountry', country: 'DE' }]);

    // Exactly two days after its last modification a cart is still there; a moment later it goes.
    await advance(DAY);
    expect(await deleteExpiredCarts(documents, clock)).toBe(0);
    await advance(1);
    expect(await deleteExpiredCarts(documents, clock)).toBe(1);
    expect((await api.get(`/${P}/carts/${untouched.id}`)).status).toBe(404);
    expect((await api.get(`/${P}/carts/${touched.id}`)).status).toBe(200);

    await advance(DAY);
    expect(await deleteExpiredCarts(documents, clock)).toBe(1);
    expect((await api.get(`/${P}/carts/${touched.id}`)).status).toBe(404);

    // Drained until all six arrived: a send still in flight when the clock jumps a day loses its
    // lease and is sent again (at least once; the copies carry the same dedup key), so a count of
    // messages can be reached before the last one arrives.
    const expected = [
      `subscription:${subscription.id}:ResourceCreated:1`,
      `cart:${untouched.id}:ResourceCreated:1`,
      `cart:${untouched.id}:ResourceDeleted:1`,
      `cart:${touched.id}:ResourceCreated:1`,
      `cart:${touched.id}:ResourceUpdated:2`,
      `cart:${touched.id}:ResourceDeleted:${modified.version}`,
    ].sort();
    const arrived = new Set<string>();
    await eventually(async () => {
      for (const label of labels(sqsDocuments(await sqs.receiveAll(queue)))) arrived.add(label);
      expect([...arrived].sort()).toEqual(expected);
    });
  });
});
