/**
 * Issue 29: shopping list line items follow their products (reference ShoppingListLineItem: `name`
 * and `published` "updated … when the Product's name [published status] changes"; `deactivatedAt`
 * "If the Product or Product Variant is deleted or unpublished … the date and time (UTC) this
 * occurred"), on every shopping list answer, with and without `expand`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const SETUP_MS = 180_000;
const P = 'shopping-lists-follow';
const name = (text: string) => ({ en: text });

describe('shopping list line items follow their products', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let serial = 0;

  /** A published product with a master variant and a second one. */
  async function newProduct(title: string): Promise<Json> {
    serial += 1;
    return admin.ok(
      `/${P}/products`,
      {
        productType: { typeId: 'product-type', key: 'furniture' },
        name: name(title),
        slug: name(`${title.toLowerCase()}-${serial}`),
        masterVariant: { sku: `${title}-${serial}-a` },
        variants: [{ sku: `${title}-${serial}-b` }],
        publish: true,
      },
      201,
    );
  }

  async function updateProduct(product: Json, actions: Json[]): Promise<Json> {
    const current = await admin.read(`/${P}/products/${product.id as string}`);
    return admin.update(`/${P}/products/${product.id as string}`, current.version as number, actions);
  }

  async function listOf(...lineItems: Json[]): Promise<Json> {
    return admin.ok(`/${P}/shopping-lists`, { name: name('Wishes'), lineItems }, 201);
  }

  /** When the product's latest message of `type` was created (the Messages API). */
  async function messageTime(product: Json, type: string): Promise<string> {
    const where = encodeURIComponent(`resource(id = "${product.id as string}") and type = "${type}"`);
    const page = await admin.read(`/${P}/messages?where=${where}&sort=createdAt%20desc`);
    expect(page.results.length).toBeGreaterThan(0);
    return page.results[0].createdAt as string;
  }

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, ['manage_shopping_lists', 'manage_products', 'manage_product_types', 'view_messages', 'manage_project']);
    await admin.ok(`/${P}/product-types`, { key: 'furniture', name: 'Furniture', description: 'Furniture', attributes: [] }, 201);
  }, SETUP_MS);
  afterAll(() => gateway?.close());

  it("answers the product's current name, also on queries and with expand", async () => {
    const chair = await newProduct('Chair');
    const list = await listOf({ productId: chair.id });
    expect(list.lineItems[0]).toMatchObject({ name: name('Chair'), published: true });
    expect(list.lineItems[0].deactivatedAt).toBeUndefined();

    await updateProduct(chair, [{ action: 'changeName', name: name('Armchair') }, { action: 'publish' }]);
    const read = await admin.read(`/${P}/shopping-lists/${list.id as string}?expand=lineItems[*].productSlug`);
    expect(read.lineItems[0]).toMatchObject({ name: name('Armchair'), published: true, productSlug: chair.masterData.current.slug });
    const page = await admin.read(`/${P}/shopping-lists?where=${encodeURIComponent(`id = "${list.id as string}"`)}`);
    expect(page.results[0].lineItems[0].name).toEqual(name('Armchair'));
    // A staged name is not the current data: the item keeps the published one.
    await updateProduct(chair, [{ action: 'changeName', name: name('Stool'), staged: true }]);
    expect((await admin.read(`/${P}/shopping-lists/${list.id as string}`)).lineItems[0].name).toEqual(name('Armchair'));
  });

  it('is deactivated when its product is unpublished, at the time of ProductUnpublished, and active again once republished', async () => {
    const lamp = await newProduct('Lamp');
    const list = await listOf({ productId: lamp.id });
    await updateProduct(lamp, [{ action: 'unpublish' }]);
    const unpublishedAt = await messageTime(lamp, 'ProductUnpublished');
    // Later product writes do not move the time.
    await updateProduct(lamp, [{ action: 'changeName', name: name('Desk lamp') }]);
    const read = await admin.read(`/${P}/shopping-lists/${list.id as string}`);
    expect(read.lineItems[0]).toMatchObject({ published: false, deactivatedAt: unpublishedAt });

    await updateProduct(lamp, [{ action: 'publish' }]);
    const active = await admin.read(`/${P}/shopping-lists/${list.id as string}`);
    expect(active.lineItems[0]).toMatchObject({ published: true, name: name('Desk lamp') });
    expect(active.lineItems[0].deactivatedAt).toBeUndefined();
  });

  it('deactivates only the item of a removed variant', async () => {
    const table = await newProduct('Table');
    const list = await listOf({ productId: table.id, variantId: 2 }, { productId: table.id });
    await updateProduct(table, [{ action: 'removeVariant', id: 2, staged: false }]);
    const removedAt = await messageTime(table, 'ProductVariantDeleted');
    const read = await admin.read(`/${P}/shopping-lists/${list.id as string}?expand=lineItems[*].variant`);
    const [removed, master] = read.lineItems as [Json, Json];
    expect(removed).toMatchObject({ variantId: 2, published: true, deactivatedAt: removedAt });
    expect(removed.variant).toBeUndefined();
    expect(master.deactivatedAt).toBeUndefined();
    expect(master.variant).toMatchObject({ id: 1 });
  });

  it("is deactivated when its product is deleted, at the time of ProductDeleted, keeping the product's last name", async () => {
    const sofa = await newProduct('Sofa');
    const list = await listOf({ productId: sofa.id });
    const current = await admin.read(`/${P}/products/${sofa.id as string}`);
    const deleted = await admin.delete(`/${P}/products/${sofa.id as string}?version=${current.version as number}`);
    expect(deleted.status).toBe(200);
    const deletedAt = await messageTime(sofa, 'ProductDeleted');
    const read = await admin.read(`/${P}/shopping-lists/${list.id as string}?expand=lineItems[*].variant`);
    expect(read.lineItems[0]).toMatchObject({ name: name('Sofa'), published: false, deactivatedAt: deletedAt });
  });

  it("without stored messages, an unpublished product's item is deactivated at the product's last modification", async () => {
    const shelf = await newProduct('Shelf');
    const list = await listOf({ sku: shelf.masterData.current.masterVariant.sku });
    const project = await admin.read(`/${P}`);
    await admin.update(`/${P}`, project.version as number, [{ action: 'changeMessagesEnabled', messagesEnabled: false }]);
    try {
      const unpublished = await updateProduct(shelf, [{ action: 'unpublish' }]);
      const read = await admin.read(`/${P}/shopping-lists/${list.id as string}`);
      expect(read.lineItems[0]).toMatchObject({ published: false, deactivatedAt: unpublished.lastModifiedAt });
    } finally {
      const now = await admin.read(`/${P}`);
      await admin.update(`/${P}`, now.version as number, [{ action: 'changeMessagesEnabled', messagesEnabled: true }]);
    }
  });
});
