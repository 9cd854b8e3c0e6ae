import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteExpiredCarts } from '../../src/resources/carts/retention.js';
import { scheduleCleanup } from '../../src/resources/shared/cleanup-schedule.js';
import { callerWith } from './commerce.js';
import { ManualClock } from '../support/clock.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'cart-sweep-close';
const DAY = 24 * 60 * 60 * 1000;

/**
 * The cart sweep deletes expired carts one transaction each (after an upgrade: every cart older
 * than 90 days), so closing the gateway (SIGTERM) must stop it between deletes rather than wait for
 * the last one: the rest waits for the next run.
 */
describe('closing a gateway while a cleanup runs', { timeout: 60_000 }, () => {
  let clock: ManualClock;
  let gateway: TestGateway;

  beforeAll(async () => {
    clock = new ManualClock();
    gateway = await startTestGateway({ projects: [P], clock });
    const api = await callerWith(gateway, P, ['manage_orders']);
    for (let i = 0; i < 3; i++) await api.ok(`/${P}/carts`, { currency: 'EUR', deleteDaysAfterLastModification: 1 }, 201);
    clock.advance(2 * DAY);
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('close() aborts the run in progress and waits for it to stop', async () => {
    const app = Fastify();
    let stopped = false;
    scheduleCleanup(app, 'things', async (signal) => {
      // A run that would go on for ever unless told to stop.
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
      stopped = true;
      return 0;
    });
    await app.ready();
    await app.close();
    expect(stopped).toBe(true);
  });

  it('the cart sweep stops between two deletes once aborted; the next run deletes the rest', async () => {
    const count = async () =>
      (await gateway.db.query<{ count: number }>("SELECT count(*)::int AS count FROM resources WHERE project_key = $1 AND type_id = 'cart'", [P])).rows[0]
        ?.count;
    const closing = new AbortController();
    const documents = gateway.gateway.documents;
    // Aborted once the first delete has committed (its change notification is in the outbox).
    const watching = Object.assign(Object.create(documents) as typeof documents, {
      delete: async (...args: Parameters<typeof documents.delete>) => {
        const deleted = await documents.delete(...args);
        closing.abort();
        return deleted;
      },
    });
    expect(await deleteExpiredCarts(watching, clock, closing.signal)).toBe(1);
    expect(await count()).toBe(2);
    expect(await deleteExpiredCarts(documents, clock)).toBe(2);
    expect(await count()).toBe(0);
  });
});
