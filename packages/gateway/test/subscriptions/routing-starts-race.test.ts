import { DocumentStore } from '@herald/store';
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller, Json } from '../carts/commerce.js';
import type { TestGateway } from '../support/gateway.js';
import { labels, routingOutage, sqsDestination, sqsDocuments, type RoutingOutage } from './support.js';

const P = 'routing-starts-race';
const onPostgres = process.env.DATABASE_URL?.startsWith('postgres') === true;

/**
 * A route starts at the snapshot of the subscription's write, not at an outbox `seq`: on PostgreSQL
 * an event takes its `seq` when written and commits whenever its transaction does. One that took
 * its `seq` before the subscription was created but commits after the create answered must reach
 * the subscription (with a start by `seq` it was never routed to it: a miss, not a delay).
 */
describe.skipIf(!onPostgres)('route starts under concurrent transactions (PostgreSQL)', { timeout: 60_000 }, () => {
  let outage: RoutingOutage;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let api: Caller;
  let queue = '';
  let subscription: Json;
  let store: Json;
  let late: Json;

  beforeAll(async () => {
    outage = await routingOutage(P);
    ({ sqs, gateway, caller: api } = outage);
    queue = sqs.createQueue('race');
    store = await api.ok(`/${P}/stores`, { key: 'store-a', name: { en: 'A' } }, 201);

    // A write whose transaction has appended its outbox row (nextval) but not committed yet.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let appended!: () => void;
    const inTransaction = new Promise<void>((resolve) => (appended = resolve));
    const documents = new DocumentStore(gateway.db);
    const pending = documents.update<Json & { id: string; version: number; createdAt: string; lastModifiedAt: string }>(
      { projectKey: P },
      'store',
      { id: store.id as string },
      1,
      (current) => ({ doc: { ...current, name: { en: 'A-concurrent' } } }),
      {
        alongside: async () => {
          appended();
          await gate;
        },
      },
    );
    await inTransaction;

    // The subscription is created (and answered 201) while that write is still open.
    subscription = await api.ok(`/${P}/subscriptions`, { destination: sqsDestination(queue), changes: [{ resourceTypeId: 'store' }] }, 201);

    // Now the write commits: after the subscription was created.
    release();
    store = await pending;
    expect(store.version).toBe(2);

    // A later write, to know when routing has caught up.
    late = await api.ok(`/${P}/stores`, { key: 'store-b', name: { en: 'B' } }, 201);

    outage.startRouting();
    await outage.routed([subscription.id as string]);
  });

  afterAll(() => outage?.stop());

  it('an event committed after the subscription was created reaches it', async () => {
    await sqs.waitForMessages(queue, 2);
    const received = labels(sqsDocuments(await sqs.receiveAll(queue)));
    expect(received).toContain(`store:${late.id}:ResourceCreated:1`);
    // Written before the subscription, committed after its 201.
    expect(received).toContain(`store:${store.id}:ResourceUpdated:2`);
    // Committed before the subscription was created.
    expect(received).not.toContain(`store:${store.id}:ResourceCreated:1`);
  });
});
