/**
 * Category writes racing each other, on PostgreSQL (on PGlite statements run one at a time, so no
 * race shows; skipped when initdb/pg_ctl are missing). Each race holds the first request just
 * before it writes, then sends the second, and lets the first go once the second has either
 * finished or is waiting for the category tree lock (category-documents.ts):
 * - two moves that together would make a cycle: one must fail (400 InvalidInput);
 * - a child created below a category being moved gets the ancestors of the moved parent;
 * - two creates with the same slug: one must fail (400 DuplicateField).
 */
import { postgresAvailable, startPostgres, type RunningService } from '@herald/testkit';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatedGateway, type GatedGateway } from '../support/gated-gateway.js';
import { bootstrap, get, postJson, token } from '../oauth/helpers.js';
import { eventually } from '../subscriptions/support.js';
import type { Json } from '../carts/commerce.js';
import { category } from './support.js';

const P = 'category-races';
const url = (path = '') => `/${P}/categories${path}`;

describe.skipIf(!postgresAvailable())('category writes racing on PostgreSQL', { timeout: 60_000 }, () => {
  let server: RunningService | undefined;
  let gateway: GatedGateway;
  let admin: string;

  beforeAll(async () => {
    server = await startPostgres();
    gateway = await startGatedGateway([P], { serverUrl: server.url });
    admin = (await token(gateway, bootstrap(gateway), { grant_type: 'client_credentials', scope: `manage_categories:${P}` })).access_token;
  });
  afterAll(async () => {
    await gateway?.close();
    await server?.stop();
  });

  async function create(draft: Json): Promise<Json> {
    const answer = await postJson(gateway, url(), admin, draft);
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json() as Json;
  }

  const move = (moved: Json, parent: Json) =>
    postJson(gateway, url(`/${moved.id as string}`), admin, {
      version: moved.version,
      actions: [{ action: 'changeParent', parent: { typeId: 'category', id: parent.id } }],
    });

  /** Whether some transaction waits for an advisory lock (the category tree lock). */
  async function someoneWaitsForTheLock(): Promise<boolean> {
    const waiting = await gateway.db.query<{ count: number }>("SELECT count(*)::int AS count FROM pg_locks WHERE locktype = 'advisory' AND NOT granted");
    return (waiting.rows[0]?.count ?? 0) > 0;
  }

  /**
   * Runs `first` until it is about to write the row `writes` (an INSERT or UPDATE of resources
   * whose parameters name it), then `second` until it is done or waits for the tree lock, then
   * lets `first` go; answers both.
   */
  async function race(
    writes: (sql: string, params: readonly unknown[]) => boolean,
    first: () => Promise<LightMyRequestResponse>,
    second: () => Promise<LightMyRequestResponse>,
  ): Promise<[LightMyRequestResponse, LightMyRequestResponse]> {
    const gate = gateway.holdBefore((sql, params) => writes(sql, params));
    const firstAnswer = first();
    await gate.reached;
    let secondDone = false;
    const secondAnswer = second().finally(() => {
      secondDone = true;
    });
    await eventually(async () => expect(secondDone || (await someoneWaitsForTheLock())).toBe(true));
    gate.open();
    return Promise.all([firstAnswer, secondAnswer]);
  }

  const updates = (id: string) => (sql: string, params: readonly unknown[]) => sql.includes('UPDATE resources SET key') && params[5] === id;
  const inserts = (key: string) => (sql: string, params: readonly unknown[]) => sql.includes('INSERT INTO resources') && params[6] === key;

  it('lets only one of two moves that together would make a cycle succeed', async () => {
    const x = await create(category('race-x'));
    const y = await create(category('race-y'));
    const [first, second] = await race(
      updates(x.id as string),
      () => move(x, y),
      () => move(y, x),
    );
    const statuses = [first.statusCode, second.statusCode].sort();
    expect(statuses, `${first.body} / ${second.body}`).toEqual([200, 400]);
    const refused = first.statusCode === 400 ? first : second;
    expect((refused.json() as Json).errors[0].code).toBe('InvalidInput');

    const [nowX, nowY] = await Promise.all([x, y].map(async (made) => (await get(gateway, url(`/${made.id as string}`), admin)).json() as Json));
    // A tree: exactly one of them is below the other.
    expect([nowX?.parent?.id === y.id, nowY?.parent?.id === x.id].filter(Boolean)).toHaveLength(1);
  });

  it('gives a child created below a moving category the ancestors of the moved parent', async () => {
    const root = await create(category('race-root'));
    const parent = await create(category('race-parent'));
    // The create has read the parent where it was; the move has not started yet.
    const [child, moved] = await race(
      inserts('race-child'),
      () => postJson(gateway, url(), admin, category('race-child', { parent: { typeId: 'category', key: 'race-parent' } })),
      () => move(parent, root),
    );
    expect(moved.statusCode, moved.body).toBe(200);
    expect(child.statusCode, child.body).toBe(201);
    const stored = (await get(gateway, url('/key=race-child'), admin)).json() as Json;
    expect(stored.ancestors).toEqual([
      { typeId: 'category', id: root.id },
      { typeId: 'category', id: parent.id },
    ]);
  });

  it('lets only one of two creates with the same slug succeed', async () => {
    const [first, second] = await race(
      inserts('race-slug-1'),
      () => postJson(gateway, url(), admin, category('race-slug-1', { slug: { en: 'same-slug' } })),
      () => postJson(gateway, url(), admin, category('race-slug-2', { slug: { en: 'same-slug' } })),
    );
    expect([first.statusCode, second.statusCode].sort(), `${first.body} / ${second.body}`).toEqual([201, 400]);
    const refused = first.statusCode === 400 ? first : second;
    expect((refused.json() as Json).errors[0]).toMatchObject({ code: 'DuplicateField', field: 'slug.en' });
  });
});
