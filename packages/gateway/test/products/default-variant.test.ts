/**
 * ProductSetDefaultVariantAction (reference types/product/updates/ProductSetDefaultVariantAction.raml,
 * beta): refused on a `Classic` project (types/project/ProductCatalogModel.raml, the default); on a
 * `Modular` one it sets or clears ProductData.defaultVariant (a VariantReference) of the staged
 * data, or of both with `staged: false`, naming one of the product's variants by id, key or SKU;
 * publishing carries it to the current data, removing the variant clears it, and product
 * projections do not show it (ProductProjection has no defaultVariant).
 */
import { startSqsPeer, type SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { deliveriesAbout, labels, payloadOf, REGION, subscribedQueue } from '../subscriptions/support.js';

const CLASSIC = 'default-variant-classic';
const MODULAR = 'default-variant-modular';
const SCOPES = ['manage_project', 'manage_products', 'manage_product_types', 'manage_subscriptions'];

describe('Product setDefaultVariant', { timeout: 60_000 }, () => {
  let sqs: SqsPeer;
  let gateway: TestGateway;
  const callers: Record<string, Caller> = {};

  /** A product of the attribute-free `lamps` type with variants 1..3 (keys `v1`…, SKUs `<key>-1`…). */
  async function lamp(projectKey: string, key: string): Promise<{ url: string; product: Json }> {
    const variant = (id: number): Json => ({ sku: `${key}-${id}`, key: `${key}-v${id}` });
    const product = await callers[projectKey]!.ok(
      `/${projectKey}/products`,
      {
        key,
        productType: { typeId: 'product-type', key: 'lamps' },
        name: { en: key },
        slug: { en: key },
        masterVariant: variant(1),
        variants: [variant(2), variant(3)],
      },
      201,
    );
    return { url: `/${projectKey}/products/${product.id as string}`, product };
  }

  async function refusal(url: string, version: number, action: Json): Promise<Json> {
    const answer = await callers[MODULAR]!.post(url, { version, actions: [action] });
    expect(answer.status, JSON.stringify(action)).toBe(400);
    return answer.body.errors[0] as Json;
  }

  beforeAll(async () => {
    sqs = await startSqsPeer({ region: REGION });
    gateway = await startTestGateway({
      projects: [CLASSIC, MODULAR],
      delivery: { environment: { endpoints: { sqs: sqs.endpoint }, timeouts: { sendMs: 10_000 } } },
    });
    for (const projectKey of [CLASSIC, MODULAR]) {
      callers[projectKey] = await callerWith(gateway, projectKey, SCOPES);
      await callers[projectKey].ok(`/${projectKey}/product-types`, { key: 'lamps', name: 'Lamps', description: 'Lamps', attributes: [] }, 201);
    }
    const project = await callers[MODULAR]!.read(`/${MODULAR}`);
    await callers[MODULAR]!.update(`/${MODULAR}`, project.version as number, [{ action: 'setProductCatalogModel', productCatalogModel: 'Modular' }]);
  }, 180_000);
  afterAll(async () => {
    await gateway?.close();
    await sqs?.stop();
  });

  it('is refused on a Classic project, by default and when set explicitly', async () => {
    const admin = callers[CLASSIC]!;
    const { url } = await lamp(CLASSIC, 'classic');
    const action = { action: 'setDefaultVariant', variant: { typeId: 'variant', key: 'classic-v2' } };
    const refused = async (version: number): Promise<void> => {
      const answer = await admin.post(url, { version, actions: [action] });
      expect(answer.status).toBe(400);
      expect(answer.body.errors[0]).toMatchObject({ code: 'InvalidOperation', message: expect.stringContaining('Modular') });
    };
    await refused(1);
    const project = await admin.read(`/${CLASSIC}`);
    await admin.update(`/${CLASSIC}`, project.version as number, [{ action: 'setProductCatalogModel', productCatalogModel: 'Classic' }]);
    await refused(1);
  });

  it('sets the staged default variant by key, publishes it, and sets both with staged false by id and by sku', async () => {
    const admin = callers[MODULAR]!;
    const { url } = await lamp(MODULAR, 'desk');
    let product = await admin.update(url, 1, [{ action: 'setDefaultVariant', variant: { typeId: 'variant', key: 'desk-v2' } }]);
    expect(product.version).toBe(2);
    expect(product.masterData.staged.defaultVariant).toEqual({ typeId: 'variant', id: '2' });
    expect(product.masterData.current.defaultVariant).toBeUndefined();
    expect(product.masterData.hasStagedChanges).toBe(true);

    product = await admin.update(url, 2, [{ action: 'publish' }]);
    expect(product.masterData.current.defaultVariant).toEqual({ typeId: 'variant', id: '2' });

    product = await admin.update(url, 3, [{ action: 'setDefaultVariant', variant: { id: '3' }, staged: false }]);
    expect(product.masterData.staged.defaultVariant).toEqual({ typeId: 'variant', id: '3' });
    expect(product.masterData.current.defaultVariant).toEqual({ typeId: 'variant', id: '3' });
    expect(product.masterData.hasStagedChanges).toBe(false);

    product = await admin.update(url, 4, [{ action: 'setDefaultVariant', variant: { sku: 'desk-1' }, staged: false }]);
    expect(product.masterData.current.defaultVariant).toEqual({ typeId: 'variant', id: '1' });
  });

  it('clears the default variant without `variant`: the staged one only by default', async () => {
    const admin = callers[MODULAR]!;
    const { url } = await lamp(MODULAR, 'floor');
    await admin.update(url, 1, [{ action: 'setDefaultVariant', variant: { id: 2 }, staged: false }]);
    let product = await admin.update(url, 2, [{ action: 'setDefaultVariant' }]);
    expect(product.masterData.staged.defaultVariant).toBeUndefined();
    expect(product.masterData.current.defaultVariant).toEqual({ typeId: 'variant', id: '2' });
    product = await admin.update(url, 3, [{ action: 'setDefaultVariant', staged: false }]);
    expect(product.masterData.current.defaultVariant).toBeUndefined();
    expect(product.masterData.hasStagedChanges).toBe(false);
  });

  it('is cleared when its variant is removed', async () => {
    const admin = callers[MODULAR]!;
    const { url } = await lamp(MODULAR, 'wall');
    await admin.update(url, 1, [{ action: 'setDefaultVariant', variant: { key: 'wall-v3' }, staged: false }]);
    let product = await admin.update(url, 2, [{ action: 'removeVariant', id: 2, staged: false }]);
    expect(product.masterData.current.defaultVariant).toEqual({ typeId: 'variant', id: '3' });
    product = await admin.update(url, 3, [{ action: 'removeVariant', sku: 'wall-3' }]);
    expect(product.masterData.staged.defaultVariant).toBeUndefined();
    expect(product.masterData.current.defaultVariant).toEqual({ typeId: 'variant', id: '3' });
  });

  it('refuses a variant of another product and malformed identifiers with 400s naming `variant`', async () => {
    const { url } = await lamp(MODULAR, 'ceiling');
    await lamp(MODULAR, 'other');
    for (const variant of [{ key: 'other-v2' }, { sku: 'other-1' }, { id: '9' }, { id: 9 }]) {
      expect(await refusal(url, 1, { action: 'setDefaultVariant', variant })).toMatchObject({ code: 'InvalidInput', field: 'variant' });
    }
    for (const variant of ['ceiling-v2', [], {}, { typeId: 'product', key: 'ceiling-v2' }]) {
      expect(await refusal(url, 1, { action: 'setDefaultVariant', variant })).toMatchObject({ code: 'InvalidInput', field: 'variant' });
    }
    // VariantResourceIdentifier: "If both are set, an InvalidJsonInput error is returned."
    expect((await refusal(url, 1, { action: 'setDefaultVariant', variant: { id: '2', key: 'ceiling-v2' } })).code).toBe('InvalidJsonInput');
    expect(await refusal(url, 1, { action: 'setDefaultVariant', variant: { key: 'ceiling-v2' }, staged: 'yes' })).toMatchObject({
      code: 'InvalidInput',
      field: 'staged',
    });
  });

  it('is not shown by product projections (ProductProjection has no defaultVariant)', async () => {
    const admin = callers[MODULAR]!;
    const { url, product } = await lamp(MODULAR, 'table');
    await admin.update(url, 1, [{ action: 'setDefaultVariant', variant: { key: 'table-v2' } }]);
    await admin.update(url, 2, [{ action: 'publish' }]);
    for (const staged of [true, false]) {
      const projection = await admin.read(`/${MODULAR}/product-projections/${product.id as string}?staged=${String(staged)}`);
      expect(projection.masterVariant.sku).toBe('table-1');
      expect(projection).not.toHaveProperty('defaultVariant');
    }
  });

  it('delivers a ResourceUpdated change notification for it to an SQS subscription (no message: the reference has none)', async () => {
    const admin = callers[MODULAR]!;
    const queue = await subscribedQueue(sqs, admin, MODULAR, 'product');
    const { url, product } = await lamp(MODULAR, 'delivered');
    await admin.update(url, 1, [{ action: 'setDefaultVariant', variant: { key: 'delivered-v2' } }]);
    const id = product.id as string;
    const documents = await deliveriesAbout(sqs, queue, id, 3);
    expect(labels(documents)).toEqual([`product:${id}:Message:ProductCreated:1`, `product:${id}:ResourceCreated:1`, `product:${id}:ResourceUpdated:2`].sort());
    const updated = documents.map(payloadOf).find((payload) => payload.notificationType === 'ResourceUpdated');
    expect(updated).toMatchObject({ version: 2, oldVersion: 1 });
  });
});
