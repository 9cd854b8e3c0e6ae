/**
 * Issue 28: the category tree. `ancestors` is computed (root first); a move (changeParent) gives
 * every descendant its new ancestors in the same transaction, each a new version with its own
 * change notification, delivered to an SQS subscription; a parent below the moved Category is
 * refused (InvalidInput); deleting a Category deletes its subcategories. Races between writes are
 * in tree-races.test.ts (PostgreSQL).
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller, Json } from '../carts/commerce.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { eventually, labels, payloadOf, sqsDestination, sqsDocuments, WAIT_MS } from '../subscriptions/support.js';
import { byKey, category } from './support.js';

const SETUP_MS = 180_000;
const P = 'category-tree';
const url = (path = '') => `/${P}/categories${path}`;
const ref = (made: Json) => ({ typeId: 'category', id: made.id as string });

describe('the category tree', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let admin: Caller;
  let queue: string;

  beforeAll(async () => {
    setup = await startSqsGateway(P, ['manage_categories', 'manage_subscriptions']);
    ({ sqs, admin } = setup);
    queue = sqs.createQueue('category-tree-changes');
    await admin.ok(`/${P}/subscriptions`, { destination: sqsDestination(queue), changes: [{ resourceTypeId: 'category' }] }, 201);
    await sqs.waitForMessages(queue, 1, WAIT_MS); // the test notification
    await sqs.receiveAll(queue);
  }, SETUP_MS);
  afterAll(() => setup?.close());

  /** Roots r1, r2 and the chain r1 > a > b > c > d. */
  async function tree(prefix: string): Promise<Record<'r1' | 'r2' | 'a' | 'b' | 'c' | 'd', Json>> {
    const made = async (name: string, parent?: string) =>
      admin.ok(url(), category(`${prefix}-${name}`, parent === undefined ? {} : { parent: byKey(`${prefix}-${parent}`) }), 201);
    const r1 = await made('r1');
    const r2 = await made('r2');
    const a = await made('a', 'r1');
    const b = await made('b', 'a');
    const c = await made('c', 'b');
    const d = await made('d', 'c');
    return { r1, r2, a, b, c, d };
  }

  const read = (made: Json) => admin.read(url(`/${made.id as string}`));

  /** The change notifications of `made` that arrive, until there are `count` of them. */
  async function changesOf(made: readonly Json[], count: number): Promise<Json[]> {
    const ids = new Set(made.map((one) => one.id as string));
    const found: Json[] = [];
    await eventually(async () => {
      const arrived = sqsDocuments(await sqs.receiveAll(queue));
      found.push(...arrived.filter((document) => ids.has(payloadOf(document).resource?.id as string)));
      expect(found.length).toBeGreaterThanOrEqual(count);
    });
    return found;
  }

  it('computes ancestors root first on create', async () => {
    const { r1, a, b, c, d } = await tree('create');
    expect(d.parent).toEqual(ref(c));
    expect(d.ancestors).toEqual([ref(r1), ref(a), ref(b), ref(c)]);
    expect(a.ancestors).toEqual([ref(r1)]);
  });

  it('moves a middle node: every descendant gets its new ancestors and version, and a change notification', async () => {
    const { r1, r2, a, b, c, d } = await tree('move');
    await changesOf([r1, r2, a, b, c, d], 6);

    const moved = await admin.update(url(`/${b.id as string}`), 1, [{ action: 'changeParent', parent: byKey('move-r2') }]);
    expect(moved).toMatchObject({ version: 2, parent: ref(r2), ancestors: [ref(r2)] });
    expect(await read(c)).toMatchObject({ version: 2, parent: ref(b), ancestors: [ref(r2), ref(b)] });
    expect(await read(d)).toMatchObject({ version: 2, parent: ref(c), ancestors: [ref(r2), ref(b), ref(c)] });
    // Above and beside the moved node nothing changed.
    for (const untouched of [r1, r2, a]) expect((await read(untouched)).version).toBe(1);
    const below = await admin.read(`${url()}?where=${encodeURIComponent(`ancestors(id = "${a.id as string}")`)}`);
    expect(below.results).toEqual([]);

    const changes = await changesOf([b, c, d], 3);
    expect(labels(changes)).toEqual(
      [`category:${b.id as string}:ResourceUpdated:2`, `category:${c.id as string}:ResourceUpdated:2`, `category:${d.id as string}:ResourceUpdated:2`].sort(),
    );
    expect(changes.map(payloadOf).every((payload) => payload.oldVersion === 1)).toBe(true);

    // Moving the top of the chain carries the whole chain along.
    const top = await admin.update(url(`/${r2.id as string}`), 1, [{ action: 'changeParent', parent: ref(r1) }]);
    expect(top.ancestors).toEqual([ref(r1)]);
    expect((await read(d)).ancestors).toEqual([ref(r1), ref(r2), ref(b), ref(c)]);
    expect((await read(d)).version).toBe(3);
  });

  it('refuses a parent that is the category itself or one of its descendants (InvalidInput), writing nothing', async () => {
    const { a, b, d } = await tree('cycle');
    for (const parent of [ref(a), ref(b), ref(d), byKey('cycle-d')]) {
      const answer = await admin.post(url(`/${a.id as string}`), { version: 1, actions: [{ action: 'changeParent', parent }] });
      expect(answer.status, JSON.stringify(parent)).toBe(400);
      expect(answer.body.errors[0].code).toBe('InvalidInput');
    }
    for (const unchanged of [a, b, d]) expect((await read(unchanged)).version).toBe(1);
  });

  it('deletes a category with its subcategories, each with a ResourceDeleted notification', async () => {
    const { r1, a, b, c, d } = await tree('delete');
    await changesOf([r1, a, b, c, d], 5);

    const deleted = await admin.delete(url(`/key=delete-b?version=1`));
    expect(deleted.status).toBe(200);
    expect(deleted.body.id).toBe(b.id);
    for (const gone of [b, c, d]) expect((await admin.get(url(`/${gone.id as string}`))).status).toBe(404);
    for (const kept of [r1, a]) expect((await read(kept)).version).toBe(1);

    expect(labels(await changesOf([b, c, d], 3))).toEqual(
      [`category:${b.id as string}:ResourceDeleted:1`, `category:${c.id as string}:ResourceDeleted:1`, `category:${d.id as string}:ResourceDeleted:1`].sort(),
    );
  });

  it('deletes nothing when the version is stale (409)', async () => {
    const { b, c } = await tree('stale');
    const answer = await admin.delete(url(`/${b.id as string}?version=2`));
    expect(answer.status).toBe(409);
    expect((await read(b)).version).toBe(1);
    expect((await read(c)).version).toBe(1);
  });
});
