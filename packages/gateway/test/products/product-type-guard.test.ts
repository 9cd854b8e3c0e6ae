/**
 * Issue 28: a product is checked against its ProductType before its create's transaction; a
 * ProductType update follows the type's products in its own. A create whose type changed in
 * between must not commit a product the update did not follow (products/type-guard.ts): it waits
 * for the type's lock, finds the definitions it was checked against gone, and answers 409.
 *
 * The interleaving is made, not hoped for: the test holds the type's lock in a transaction of its
 * own and changes the type there, as a ProductType update does, while the create waits. That needs
 * a second connection, so it runs on PostgreSQL (DATABASE_URL), as CI does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Answer, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { eventually } from '../subscriptions/support.js';
import { attribute } from '../product-types/drafts.js';

const P = 'product-type-guard';
const onPostgres = process.env.DATABASE_URL?.startsWith('postgres') === true;
const title = onPostgres
  ? 'a product create whose ProductType changed after its check'
  : 'a product create whose ProductType changed after its check (SKIPPED: needs DATABASE_URL=postgres://…, a second connection)';

const lamp = (key: string, attributes: Json[]): Json => ({
  key,
  productType: { typeId: 'product-type', key: 'lamps' },
  name: { en: key },
  slug: { en: key },
  masterVariant: { sku: `${key}-1`, attributes },
});

describe.runIf(onPostgres)(title, { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let lampType: Json;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_product_types', 'manage_products']);
    lampType = await admin.ok(
      `/${P}/product-types`,
      { key: 'lamps', name: 'Lamps', description: 'Lamps', attributes: [attribute('watts', { name: 'number' }), attribute('note', { name: 'text' })] },
      201,
    );
  });
  afterAll(async () => gateway?.close());

  /** Whether the create or update sent is waiting for the type's lock (this database's advisory locks only). */
  const waitingForLock = async () =>
    eventually(async () => {
      const waiting = await gateway.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
           AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`);
      expect(waiting.rows[0]?.n).toBe(1);
    });

  /**
   * The answer to `send()`, sent while a transaction of the test holds the type's lock (`lock`: exclusive as a
   * ProductType write takes it, shared as a product create does) and has run `change` ($1 the project, $2 the
   * type's id): the request waits for the lock, then the transaction commits.
   */
  async function answerWhileTypeLocked(change: string, send: () => Promise<Answer>, { typeId = lampType.id, lock = 'pg_advisory_xact_lock' } = {}) {
    let release!: () => void;
    let locked!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const held = gateway.db.transaction(async (tx) => {
      await tx.query(`SELECT ${lock}(hashtextextended($1, 0))`, [`product-type:${P}:${typeId}`]);
      await tx.query(change, [P, typeId]);
      locked();
      await released;
    });
    await isLocked;
    const answer = send();
    await waitingForLock();
    release();
    await held;
    return answer;
  }

  it('answers 409 ConcurrentModification and creates nothing when an attribute it uses was removed meanwhile', async () => {
    // Checked against the type as every other request still sees it: with `note`.
    const answer = await answerWhileTypeLocked(
      `UPDATE resources SET
         doc = jsonb_set(doc, '{attributes}', (SELECT jsonb_agg(a) FROM jsonb_array_elements(doc -> 'attributes') a WHERE a ->> 'name' <> 'note'))
       WHERE project_key = $1 AND type_id = 'product-type' AND id = $2`,
      () => admin.post(`/${P}/products`, lamp('lamp-stale', [{ name: 'note', value: 'from before' }])),
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(409);
    expect(answer.body.errors[0]).toMatchObject({ code: 'ConcurrentModification' });
    expect((await admin.get(`/${P}/products/key=lamp-stale`)).status).toBe(404);
    // Sent again, the draft is checked against the type as it is now.
    const again = await admin.post(`/${P}/products`, lamp('lamp-stale', [{ name: 'note', value: 'from before' }]));
    expect(again.status).toBe(400);
    await admin.ok(`/${P}/products`, lamp('lamp-stale', [{ name: 'watts', value: 40 }]), 201);
  });

  it('creates the product when the type changed in what the product does not depend on (its name)', async () => {
    const answer = await answerWhileTypeLocked(
      `UPDATE resources SET doc = jsonb_set(doc, '{name}', '"Lamps and lights"') WHERE project_key = $1 AND type_id = 'product-type' AND id = $2`,
      () => admin.post(`/${P}/products`, lamp('lamp-renamed-type', [{ name: 'watts', value: 60 }])),
    );
    expect(answer.status).toBe(201);
  });

  it('a ProductType update waits for the product creates in flight (which it then follows)', async () => {
    const current = await admin.read(`/${P}/product-types/${lampType.id}`);
    // A create in flight: the type's lock held shared, its product not yet committed.
    const answer = await answerWhileTypeLocked(
      `SELECT $1::text, $2::text`,
      () =>
        admin.post(`/${P}/product-types/${lampType.id}`, {
          version: current.version,
          actions: [{ action: 'changeLabel', attributeName: 'watts', label: { en: 'Power (W)' } }],
        }),
      { lock: 'pg_advisory_xact_lock_shared' },
    );
    expect(answer.status).toBe(200);
  });

  it('answers 400 ReferencedResourceNotFound when the type was deleted meanwhile', async () => {
    const other = await admin.ok(`/${P}/product-types`, { key: 'spare', name: 'Spare', description: 'Spare', attributes: [] }, 201);
    const answer = await answerWhileTypeLocked(
      `DELETE FROM resources WHERE project_key = $1 AND type_id = 'product-type' AND id = $2`,
      () => admin.post(`/${P}/products`, { ...lamp('spare-one', []), productType: { typeId: 'product-type', key: 'spare' } }),
      { typeId: other.id },
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ code: 'ReferencedResourceNotFound' });
  });
});
