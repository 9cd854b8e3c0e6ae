/**
 * A small catalogue for the projection and search tests, made through HTTP: a product type with
 * a text, a number and an enum attribute, two categories (one below the other), a customer group,
 * a channel, and products with prices in EUR and USD.
 */
import type { Caller, Json } from '../carts/commerce.js';
import { attribute } from '../product-types/drafts.js';

export interface Catalogue {
  parentCategoryId: string;
  childCategoryId: string;
  customerGroupId: string;
  channelId: string;
}

export const eurPrice = (centAmount: number, extra: Json = {}): Json => ({ value: { currencyCode: 'EUR', centAmount }, ...extra });

export async function createCatalogue(admin: Caller, projectKey: string): Promise<Catalogue> {
  await admin.ok(
    `/${projectKey}/product-types`,
    {
      key: 'shirts',
      name: 'Shirts',
      description: 'Shirts',
      attributes: [
        attribute('colour', { name: 'text' }),
        attribute('size', { name: 'number' }),
        attribute('fit', {
          name: 'enum',
          values: [
            { key: 'slim', label: 'Slim' },
            { key: 'loose', label: 'Loose' },
          ],
        }),
        attribute('care', { name: 'ltext' }),
      ],
    },
    201,
  );
  const parent = await admin.ok(`/${projectKey}/categories`, { key: 'clothing', name: { en: 'Clothing' }, slug: { en: 'clothing' } }, 201);
  const child = await admin.ok(
    `/${projectKey}/categories`,
    { key: 'tops', name: { en: 'Tops' }, slug: { en: 'tops' }, parent: { typeId: 'category', id: parent.id } },
    201,
  );
  const group = await admin.ok(`/${projectKey}/customer-groups`, { key: 'vip', groupName: 'VIP' }, 201);
  const channel = await admin.ok(`/${projectKey}/channels`, { key: 'outlet', roles: ['ProductDistribution'] }, 201);
  return { parentCategoryId: parent.id, childCategoryId: child.id, customerGroupId: group.id, channelId: channel.id };
}

/** A ProductDraft of the `shirts` type; `variants` are extra variants after the master. */
export function shirt(key: string, extra: Json = {}): Json {
  return {
    key,
    productType: { typeId: 'product-type', key: 'shirts' },
    name: { en: `Shirt ${key}`, de: `Hemd ${key}` },
    slug: { en: key, de: `de-${key}` },
    masterVariant: {
      sku: `${key}-1`,
      attributes: [
        { name: 'colour', value: 'red' },
        { name: 'size', value: 40 },
      ],
    },
    ...extra,
  };
}

/** Creates a product and publishes it (unless `publish` is false); returns the product. */
export async function createProduct(admin: Caller, projectKey: string, draft: Json, publish = true): Promise<Json> {
  const created = await admin.ok(`/${projectKey}/products`, draft, 201);
  if (!publish) return created;
  return admin.update(`/${projectKey}/products/${created.id}`, created.version, [{ action: 'publish' }]);
}
