/**
 * Issue 28: a ProductType update and its products' follow-up (products/follow-product-type.ts)
 * commit in one transaction (the definition's `updatedAlongside`): a product write that fails
 * leaves the type, every product and the outbox as they were; a product written concurrently
 * keeps both changes. The failure is a real one of the database this test owns: a trigger that
 * refuses one product's write, as a constraint or a lost connection would mid-way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { attribute } from './drafts.js';

const P = 'product-type-atomic-follow';

/** A ProductDraft of the type `productTypeKey`, published, whose master variant holds `attributes`. */
function product(key: string, productTypeKey: string, attributes: Json[]): Json {
  return {
    key,
    productType: { typeId: 'product-type', key: productTypeKey },
    name: { en: key },
    slug: { en: key },
    masterVariant: { sku: `${key}-1`, attributes },
    publish: true,
  };
}

/** Refuses every write of the product `key` (a BEFORE UPDATE trigger raising an error). */
const REFUSE_PRODUCT = (key: string) => `
  CREATE FUNCTION refuse_product_write() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.type_id = 'product' AND NEW.doc ->> 'key' = '${key}' THEN RAISE EXCEPTION 'this test refuses the write'; END IF;
    RETURN NEW;
  END $$;
  CREATE TRIGGER refuse_product_write BEFORE UPDATE ON resources FOR EACH ROW EXECUTE FUNCTION refuse_product_write();`;
const ALLOW_PRODUCTS = 'DROP TRIGGER refuse_product_write ON resources; DROP FUNCTION refuse_product_write();';

const LAMPS = ['lamp-a', 'lamp-b', 'lamp-c'];

describe('a ProductType update and its products follow-up commit together', { timeout: 120_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;

  /** The project's outbox rows (change notifications and messages) and stored messages. */
  const recorded = async (): Promise<{ outbox: number; messages: number }> => {
    const count = async (table: string) =>
      Number((await gateway.db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE project_key = $1`, [P])).rows[0]?.n);
    return { outbox: await count('outbox'), messages: await count('messages') };
  };
  const productNamed = (key: string) => admin.read(`/${P}/products/key=${key}`);
  const attributeNames = (productDoc: Json): string[] => productDoc.masterData.current.masterVariant.attributes.map((each: Json) => each.name);

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_product_types', 'manage_products']);
    const lampType = await admin.ok(
      `/${P}/product-types`,
      { key: 'lamps', name: 'Lamps', description: 'Own products', attributes: [attribute('watts', { name: 'number' }), attribute('note', { name: 'text' })] },
      201,
    );
    await admin.ok(
      `/${P}/product-types`,
      {
        key: 'kits',
        name: 'Kits',
        description: 'Nest lamps',
        attributes: [attribute('lamp', { name: 'nested', typeReference: { typeId: 'product-type', id: lampType.id } })],
      },
      201,
    );
    for (const key of LAMPS) await admin.ok(`/${P}/products`, product(key, 'lamps', [{ name: 'watts', value: 40 }]), 201);
    await admin.ok(`/${P}/products`, product('kit', 'kits', [{ name: 'lamp', value: [{ name: 'watts', value: 60 }] }]), 201);
  }, 120_000);
  afterAll(() => gateway?.close());

  it('a product write failing mid-way answers an error and commits nothing: type, products and outbox unchanged', async () => {
    const lampType = await admin.read(`/${P}/product-types/key=lamps`);
    const before = await Promise.all([...LAMPS, 'kit'].map(productNamed));
    const recordedBefore = await recorded();
    // The nested product is followed last: the type's own products were written by then.
    await gateway.db.exec(REFUSE_PRODUCT('kit'));
    const rename = { version: lampType.version, actions: [{ action: 'changeAttributeName', attributeName: 'watts', newAttributeName: 'power' }] };
    const refused = await admin.post(`/${P}/product-types/key=lamps`, rename);
    await gateway.db.exec(ALLOW_PRODUCTS);

    expect(refused.status).toBe(500);
    expect(refused.body).toMatchObject({ statusCode: 500, errors: [expect.objectContaining({ code: expect.any(String) })] });
    const unchanged = await admin.read(`/${P}/product-types/key=lamps`);
    expect(unchanged.version).toBe(lampType.version);
    expect(unchanged.attributes.map((each: Json) => each.name)).toEqual(['watts', 'note']);
    expect(await Promise.all([...LAMPS, 'kit'].map(productNamed))).toEqual(before);
    expect(await recorded()).toEqual(recordedBefore);

    // The same update, nothing refusing it: the type and every product follow, each notified.
    const renamed = await admin.ok(`/${P}/product-types/key=lamps`, rename);
    expect(renamed.version).toBe(lampType.version + 1);
    for (const [index, key] of LAMPS.entries()) {
      const followed = await productNamed(key);
      expect(followed.version).toBe(before[index]?.version + 1);
      expect(attributeNames(followed)).toEqual(['power']);
    }
    const kit = await productNamed('kit');
    expect(kit.masterData.current.masterVariant.attributes).toEqual([{ name: 'lamp', value: [{ name: 'power', value: 60 }] }]);
    // One ResourceUpdated per product and one for the type (the reference has no messages for either).
    expect(await recorded()).toEqual({ outbox: recordedBefore.outbox + LAMPS.length + 2, messages: recordedBefore.messages });
  });

  it('a product updated while its type is followed keeps both changes (its writer retries the 409)', async () => {
    const lampType = await admin.read(`/${P}/product-types/key=lamps`);
    /** setAttribute `note` of product `key`, read again and retried on 409 as an SDK's retry does. */
    const setNote = async (key: string): Promise<number> => {
      for (let conflicts = 0; ; conflicts += 1) {
        const current = await productNamed(key);
        const answer = await admin.post(`/${P}/products/key=${key}`, {
          version: current.version,
          actions: [{ action: 'setAttribute', variantId: 1, name: 'note', value: `${key} noted`, staged: false }],
        });
        if (answer.status !== 409) {
          expect(answer.status, JSON.stringify(answer.body)).toBe(200);
          return conflicts;
        }
      }
    };
    const [renamed] = await Promise.all([
      admin.update(`/${P}/product-types/key=lamps`, lampType.version, [{ action: 'changeAttributeName', attributeName: 'power', newAttributeName: 'wattage' }]),
      ...LAMPS.map(setNote),
    ]);
    expect(renamed.version).toBe(lampType.version + 1);
    for (const key of LAMPS) {
      const { masterData } = await productNamed(key);
      for (const data of [masterData.current, masterData.staged]) {
        expect(data.masterVariant.attributes).toEqual(expect.arrayContaining([{ name: 'note', value: `${key} noted` }]));
        expect(data.masterVariant.attributes.map((each: Json) => each.name).sort()).toEqual(['note', 'wattage']);
      }
    }
  });
});
