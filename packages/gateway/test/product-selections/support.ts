/**
 * Fixtures of the Product Selection tests, made through HTTP: a product type without attributes
 * and published products with three variants (SKUs `<key>-1` … `<key>-3`).
 */
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import type { TestGateway } from '../support/gateway.js';

export const PRODUCT_TYPE_KEY = 'plain';

export async function createProductType(admin: Caller, projectKey: string): Promise<void> {
  await admin.ok(`/${projectKey}/product-types`, { key: PRODUCT_TYPE_KEY, name: 'Plain', description: 'No attributes' }, 201);
}

/** A published product with the SKUs `<key>-1` (master), `<key>-2` and `<key>-3`. */
export async function createProduct(admin: Caller, projectKey: string, key: string): Promise<Json> {
  return admin.ok(
    `/${projectKey}/products`,
    {
      key,
      productType: { typeId: 'product-type', key: PRODUCT_TYPE_KEY },
      name: { en: `Product ${key}` },
      slug: { en: key },
      masterVariant: { sku: `${key}-1` },
      variants: [{ sku: `${key}-2` }, { sku: `${key}-3` }],
      publish: true,
    },
    201,
  );
}

export const productRef = (product: Json): Json => ({ typeId: 'product', id: product.id });

/** Turns the project's Messages API on (off by default), so tests can read the messages of their actions. */
export async function enableMessages(gateway: TestGateway, projectKey: string): Promise<void> {
  const settings = await callerWith(gateway, projectKey, ['manage_project']);
  const project = await settings.read(`/${projectKey}`);
  await settings.update(`/${projectKey}`, project.version, [
    { action: 'changeMessagesConfiguration', messagesConfiguration: { enabled: true, deleteDaysAfterCreation: 30 } },
  ]);
}
