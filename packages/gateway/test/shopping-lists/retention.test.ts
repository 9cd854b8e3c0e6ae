/**
 * Spec §8 Automatic cleanup for shopping lists: a list not modified for its
 * `deleteDaysAfterLastModification` days (its draft's, else the project's ShoppingListsConfiguration,
 * 360 by default) is deleted, every modification starts the count again, and subscribers hear of
 * it like of any delete.
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteExpiredShoppingLists } from '../../src/resources/shopping-lists/retention.js';
import { callerWith, type Caller } from '../carts/commerce.js';
import { ManualClock } from '../support/clock.js';
import type { TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, subscribedQueue } from '../subscriptions/support.js';

const P = 'shopping-list-retention';
const DAY = 24 * 60 * 60 * 1000;
const SCOPES = ['manage_shopping_lists', 'manage_project_settings', 'manage_subscriptions'];

describe('Shopping lists are deleted after deleteDaysAfterLastModification days without a modification', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let clock: ManualClock;
  let gateway: TestGateway;
  let api: Caller;

  beforeAll(async () => {
    clock = new ManualClock();
    setup = await startSqsGateway(P, SCOPES, { clock });
    ({ sqs, gateway, admin: api } = setup);
  }, 180_000);
  afterAll(() => setup?.close());

  /** Moves the clock; tokens live two days, so a fresh one is issued. */
  async function advance(milliseconds: number): Promise<void> {
    clock.advance(milliseconds);
    api = await callerWith(gateway, P, SCOPES);
  }

  const createList = (days?: number) =>
    api.ok(`/${P}/shopping-lists`, { name: { en: 'List' }, ...(days === undefined ? {} : { deleteDaysAfterLastModification: days }) }, 201);

  it('takes the days from the draft, else from the project (360 unless changeShoppingListsConfiguration set them)', async () => {
    expect((await createList()).deleteDaysAfterLastModification).toBe(360);
    const project = await api.read(`/${P}`);
    await api.update(`/${P}`, project.version, [
      { action: 'changeShoppingListsConfiguration', shoppingListsConfiguration: { deleteDaysAfterLastModification: 45 } },
    ]);
    const list = await createList();
    expect(list.deleteDaysAfterLastModification).toBe(45);
    expect((await createList(400)).deleteDaysAfterLastModification).toBe(400);
    const set = await api.update(`/${P}/shopping-lists/${list.id}`, 1, [{ action: 'setDeleteDaysAfterLastModification', deleteDaysAfterLastModification: 7 }]);
    expect(set.deleteDaysAfterLastModification).toBe(7);
  });

  it('deletes a list once its days have passed since its last modification, with a ResourceDeleted notification', async () => {
    const untouched = await createList(2);
    const touched = await createList(2);
    const documents = gateway.gateway.documents;

    await advance(DAY);
    const modified = await api.update(`/${P}/shopping-lists/${touched.id}`, 1, [{ action: 'changeName', name: { en: 'Touched' } }]);
    // Exactly two days after its last modification a list is still there; a moment later it goes.
    await advance(DAY);
    expect(await deleteExpiredShoppingLists(documents, clock)).toBe(0);
    await advance(1);
    const queue = await subscribedQueue(sqs, api, P, 'shopping-list');
    expect(await deleteExpiredShoppingLists(documents, clock)).toBe(1);
    expect((await api.get(`/${P}/shopping-lists/${untouched.id}`)).status).toBe(404);
    expect((await api.get(`/${P}/shopping-lists/${touched.id}`)).status).toBe(200);
    expect(labels(await deliveriesAbout(sqs, queue, untouched.id as string, 1))).toEqual([`shopping-list:${untouched.id}:ResourceDeleted:1`]);

    await advance(DAY);
    expect(await deleteExpiredShoppingLists(documents, clock)).toBe(1);
    expect((await api.get(`/${P}/shopping-lists/${touched.id}`)).status).toBe(404);
    expect(labels(await deliveriesAbout(sqs, queue, touched.id as string, 1))).toEqual([`shopping-list:${touched.id}:ResourceDeleted:${modified.version}`]);
  });
});
