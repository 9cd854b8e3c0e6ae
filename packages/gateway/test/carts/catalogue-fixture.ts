/**
 * A small catalogue for the priced-cart tests (issue 28), made through the public HTTP API: a
 * product type, a tax category (Germany 19 % included in the price; New York with two sub-rates
 * added to it), two Zones, a customer group, a distribution and a supply channel, published
 * products with embedded prices (country, customer group, channel, tiers) and one priced by
 * standalone prices, an unpublished product, a shipping method and inventory entries.
 */
import type { Caller, Json } from './commerce.js';

export const usd = (centAmount: number) => ({ currencyCode: 'USD', centAmount });
export const eur = (centAmount: number) => ({ currencyCode: 'EUR', centAmount });

export interface Catalogue {
  shirt: Json;
  mug: Json;
  vip: Json;
  shop: Json;
  warehouse: Json;
  standard: Json;
}

async function taxesAndZones(admin: Caller, p: string): Promise<void> {
  await admin.ok(
    `/${p}/tax-categories`,
    {
      key: 'standard',
      name: 'Standard',
      rates: [
        { name: 'DE VAT', amount: 0.19, includedInPrice: true, country: 'DE' },
        {
          name: 'NY',
          includedInPrice: false,
          country: 'US',
          state: 'New York',
          subRates: [
            { name: 'State', amount: 0.04 },
            { name: 'City', amount: 0.04875 },
          ],
        },
      ],
    },
    201,
  );
  await admin.ok(`/${p}/zones`, { key: 'europe', name: 'Europe', locations: [{ country: 'DE' }] }, 201);
  await admin.ok(`/${p}/zones`, { key: 'us', name: 'US', locations: [{ country: 'US' }] }, 201);
}

function shirtDraft(vip: Json, shop: Json): Json {
  return {
    key: 'shirt',
    productType: { typeId: 'product-type', key: 'plain' },
    taxCategory: { typeId: 'tax-category', key: 'standard' },
    name: { en: 'Shirt' },
    slug: { en: 'shirt' },
    publish: true,
    masterVariant: {
      sku: 'shirt-m',
      prices: [
        { value: eur(1000) },
        { value: eur(900), country: 'DE' },
        { value: eur(800), customerGroup: { typeId: 'customer-group', id: vip.id } },
        { value: eur(700), channel: { typeId: 'channel', id: shop.id } },
        { value: usd(1500), tiers: [{ minimumQuantity: 10, value: usd(1200) }] },
      ],
    },
    variants: [{ sku: 'shirt-l', prices: [{ value: eur(1100) }] }],
  };
}

export async function seedCatalogue(admin: Caller, p: string): Promise<Catalogue> {
  await taxesAndZones(admin, p);
  await admin.ok(`/${p}/product-types`, { key: 'plain', name: 'Plain', description: 'No attributes' }, 201);
  const vip = await admin.ok(`/${p}/customer-groups`, { key: 'vip', groupName: 'VIP' }, 201);
  const shop = await admin.ok(`/${p}/channels`, { key: 'shop', roles: ['ProductDistribution'] }, 201);
  const warehouse = await admin.ok(`/${p}/channels`, { key: 'warehouse', roles: ['InventorySupply'] }, 201);
  const shirt = await admin.ok(`/${p}/products`, shirtDraft(vip, shop), 201);
  const mug = await admin.ok(
    `/${p}/products`,
    {
      key: 'mug',
      productType: { typeId: 'product-type', key: 'plain' },
      taxCategory: { typeId: 'tax-category', key: 'standard' },
      name: { en: 'Mug' },
      slug: { en: 'mug' },
      priceMode: 'Standalone',
      publish: true,
      masterVariant: { sku: 'mug-1' },
    },
    201,
  );
  await admin.ok(`/${p}/standalone-prices`, { sku: 'mug-1', value: eur(500) }, 201);
  await admin.ok(
    `/${p}/products`,
    {
      key: 'draft',
      productType: { typeId: 'product-type', key: 'plain' },
      name: { en: 'Draft' },
      slug: { en: 'draft' },
      masterVariant: { sku: 'draft-1', prices: [{ value: eur(100) }] },
    },
    201,
  );
  const standard = await admin.ok(
    `/${p}/shipping-methods`,
    {
      key: 'standard',
      name: 'Standard',
      taxCategory: { typeId: 'tax-category', key: 'standard' },
      isDefault: false,
      zoneRates: [
        { zone: { typeId: 'zone', key: 'europe' }, shippingRates: [{ price: eur(490), freeAbove: eur(5000) }] },
        {
          zone: { typeId: 'zone', key: 'us' },
          shippingRates: [{ price: usd(990), tiers: [{ type: 'CartValue', minimumCentAmount: 10000, price: usd(500) }] }],
        },
      ],
    },
    201,
  );
  return { shirt, mug, vip, shop, warehouse, standard };
}

/** One scope for every fixture and cart call (manage_project implies the others). */
export const SCOPES = ['manage_project'];
