/**
 * Issue 28, "Carts priced from the catalogue": line items by `sku` or `productId` + `variantId`
 * copied from the product's current data and priced by the reference's price selection (country,
 * customer group, channel, tiers, standalone prices), the official errors, taxes by tax mode,
 * the shipping method's rate, and orders that carry the taxes and check the inventory. Through
 * HTTP, against a catalogue made through HTTP (catalogue-fixture.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { eur, seedCatalogue, SCOPES, usd, type Catalogue } from './catalogue-fixture.js';
import { address, callerWith, type Caller, type Json } from './commerce.js';

const P = 'priced-carts';
const SETUP_MS = 240_000;
const money = (currencyCode: string, centAmount: number) => ({ type: 'centPrecision', currencyCode, centAmount, fractionDigits: 2 });
const newYork = () => ({ ...address('US'), state: 'New York' });

describe('carts priced from the catalogue', { timeout: 60_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let catalogue: Catalogue;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, SCOPES);
    catalogue = await seedCatalogue(admin, P);
  }, SETUP_MS);
  afterAll(() => gateway?.close());

  const cart = (draft: Json) => admin.ok(`/${P}/carts`, { currency: 'EUR', ...draft }, 201);
  const update = (doc: Json, actions: Json[]) => admin.update(`/${P}/carts/${doc.id}`, doc.version, actions);
  const refused = async (draft: Json) => (await admin.post(`/${P}/carts`, { currency: 'EUR', ...draft })).body;

  describe('line items from the catalogue', () => {
    it('copies name, product type, slug and variant from the current data; by sku or by productId and variantId', async () => {
      const created = await cart({
        lineItems: [
          { sku: 'shirt-m', quantity: 2 },
          { productId: catalogue.shirt.id, variantId: 2 },
        ],
      });
      const [bySku, byId] = created.lineItems;
      expect(bySku).toMatchObject({
        productId: catalogue.shirt.id,
        productKey: 'shirt',
        name: { en: 'Shirt' },
        productSlug: { en: 'shirt' },
        productType: { typeId: 'product-type', id: catalogue.shirt.productType.id },
        variant: { id: 1, sku: 'shirt-m' },
        priceMode: 'Platform',
        price: { value: money('EUR', 1000) },
        totalPrice: money('EUR', 2000),
      });
      expect(bySku.variant.prices).toHaveLength(5);
      expect(byId).toMatchObject({ variant: { id: 2, sku: 'shirt-l' }, price: { value: money('EUR', 1100) } });
      expect(created.totalPrice).toEqual(money('EUR', 3100));
    });

    it('selects the price for the country, the customer group (the customer’s too) and the distribution channel', async () => {
      expect((await cart({ country: 'DE', lineItems: [{ sku: 'shirt-m' }] })).lineItems[0].price.value.centAmount).toBe(900);
      expect((await cart({ shippingAddress: address('DE'), lineItems: [{ sku: 'shirt-m' }] })).lineItems[0].price.value.centAmount).toBe(900);
      const grouped = await cart({ country: 'DE', customerGroup: { typeId: 'customer-group', key: 'vip' }, lineItems: [{ sku: 'shirt-m' }] });
      expect(grouped.lineItems[0].price).toMatchObject({ value: { centAmount: 800 }, customerGroup: { id: catalogue.vip.id } });
      const customer = (
        await admin.ok(`/${P}/customers`, { email: 'vip@example.com', password: 'secret-123', customerGroup: { typeId: 'customer-group', key: 'vip' } }, 201)
      ).customer;
      const ofCustomer = await cart({ customerId: customer.id, lineItems: [{ sku: 'shirt-m' }] });
      expect(ofCustomer.customerGroup).toEqual({ typeId: 'customer-group', id: catalogue.vip.id });
      expect(ofCustomer.lineItems[0].price.value.centAmount).toBe(800);
      const viaChannel = await cart({ lineItems: [{ sku: 'shirt-m', distributionChannel: { typeId: 'channel', key: 'shop' } }] });
      expect(viaChannel.lineItems[0]).toMatchObject({ distributionChannel: { id: catalogue.shop.id }, price: { value: { centAmount: 700 } } });
    });

    it('takes the tier the quantity reaches, again when the quantity changes; standalone prices for Standalone products', async () => {
      const dollars = await admin.ok(`/${P}/carts`, { currency: 'USD', lineItems: [{ sku: 'shirt-m', quantity: 9 }] }, 201);
      expect(dollars.lineItems[0].price.value.centAmount).toBe(1500);
      const more = await update(dollars, [{ action: 'changeLineItemQuantity', lineItemId: dollars.lineItems[0].id, quantity: 10 }]);
      expect(more.lineItems[0]).toMatchObject({ price: { value: money('USD', 1200) }, totalPrice: money('USD', 12000) });
      const added = await update(more, [{ action: 'removeLineItem', lineItemId: more.lineItems[0].id, quantity: 2 }]);
      expect(added.lineItems[0]).toMatchObject({ quantity: 8, price: { value: money('USD', 1500) }, totalPrice: money('USD', 12000) });
      const mugs = await cart({ lineItems: [{ sku: 'mug-1', quantity: 3 }] });
      expect(mugs.lineItems[0]).toMatchObject({ priceMode: 'Platform', price: { value: money('EUR', 500) }, totalPrice: money('EUR', 1500) });
    });

    it('addLineItem adds up the same variant and reprices; recalculate with updateProductData copies the new product data', async () => {
      const created = await cart({ lineItems: [{ sku: 'shirt-l' }] });
      const added = await update(created, [{ action: 'addLineItem', sku: 'shirt-l', quantity: 2 }]);
      expect(added.lineItems).toHaveLength(1);
      expect(added.lineItems[0]).toMatchObject({ quantity: 3, totalPrice: money('EUR', 3300) });
      const product = await admin.read(`/${P}/products/key=mug`);
      await admin.update(`/${P}/products/${product.id}`, product.version, [{ action: 'changeName', name: { en: 'Big mug' } }, { action: 'publish' }]);
      const withMug = await update(added, [{ action: 'addLineItem', sku: 'mug-1' }]);
      expect(withMug.lineItems[1].name).toEqual({ en: 'Big mug' });
      await admin.update(`/${P}/products/${product.id}`, product.version + 1, [{ action: 'changeName', name: { en: 'Mug' } }, { action: 'publish' }]);
      const unchanged = await update(withMug, [{ action: 'recalculate' }]);
      expect(unchanged.lineItems[1].name).toEqual({ en: 'Big mug' });
      const refreshed = await update(unchanged, [{ action: 'recalculate', updateProductData: true }]);
      expect(refreshed.lineItems[1].name).toEqual({ en: 'Mug' });
    });

    it('external prices and totals are kept; a draft with name and externalPrice for an unknown SKU works as before the catalogue', async () => {
      const created = await cart({
        lineItems: [
          { sku: 'shirt-m', quantity: 2, externalPrice: eur(333) },
          { sku: 'shirt-l', quantity: 2, externalTotalPrice: { price: eur(500), totalPrice: eur(900) } },
          { sku: 'no-such-sku', name: { en: 'Legacy' }, externalPrice: eur(250) },
        ],
      });
      expect(created.lineItems.map((item: Json) => [item.priceMode, item.totalPrice.centAmount])).toEqual([
        ['ExternalPrice', 666],
        ['ExternalTotal', 900],
        ['ExternalPrice', 250],
      ]);
      expect(created.lineItems[0].name).toEqual({ en: 'Shirt' });
      expect(created.lineItems[2]).toMatchObject({ name: { en: 'Legacy' }, variant: { id: 1, sku: 'no-such-sku' } });
      const platform = await update(created, [{ action: 'setLineItemPrice', lineItemId: created.lineItems[0].id }]);
      expect(platform.lineItems[0]).toMatchObject({ priceMode: 'Platform', totalPrice: money('EUR', 2000) });
      const total = await update(platform, [
        { action: 'setLineItemTotalPrice', lineItemId: created.lineItems[0].id, externalTotalPrice: { price: eur(1), totalPrice: eur(2) } },
      ]);
      expect(total.lineItems[0]).toMatchObject({ priceMode: 'ExternalTotal', totalPrice: money('EUR', 2) });
    });

    it.each([
      ['an unknown SKU', { sku: 'nope' }, 'InvalidInput'],
      ['an unpublished product’s SKU', { sku: 'draft-1' }, 'InvalidInput'],
      ['an unknown product id', { productId: '00000000-0000-4000-8000-000000000001', variantId: 1 }, 'ReferencedResourceNotFound'],
      ['an unknown variant', { sku: undefined, variantId: 9 }, 'InvalidInput'],
      ['no price in the currency', { sku: 'mug-1', currency: 'USD' }, 'MatchingPriceNotFound'],
      ['neither sku nor productId', { quantity: 1 }, 'InvalidInput'],
      ['a quantity of 0', { sku: 'shirt-m', quantity: 0 }, 'InvalidInput'],
      ['an unknown distribution channel', { sku: 'shirt-m', distributionChannel: { typeId: 'channel', key: 'nope' } }, 'ReferencedResourceNotFound'],
    ])('refuses %s with 400 %s', async (_, item: Json, code) => {
      const { currency, ...lineItem } = item;
      const draft = item.variantId === 9 ? { productId: catalogue.shirt.id, variantId: 9 } : lineItem;
      const body = await refused({ currency: currency ?? 'EUR', lineItems: [draft] });
      expect(body).toMatchObject({ statusCode: 400, errors: [{ code }] });
      if (code === 'MatchingPriceNotFound') {
        expect(body.errors[0]).toMatchObject({ productId: catalogue.mug.id, variantId: 1, currency: 'USD' });
      }
    });

    it('refuses a product id whose product is not published (InvalidOperation)', async () => {
      const draft = await admin.read(`/${P}/products/key=draft`);
      expect(await refused({ lineItems: [{ productId: draft.id, variantId: 1 }] })).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidOperation' }] });
    });
  });

  describe('taxes', () => {
    it('Platform: rates from the product’s tax category for the shipping address; included in the price', async () => {
      const created = await cart({ lineItems: [{ sku: 'shirt-m', quantity: 2 }] });
      expect(created.taxedPrice).toBeUndefined();
      const taxed = await update(created, [{ action: 'setShippingAddress', address: address('DE') }]);
      const item = taxed.lineItems[0];
      // 2 × 9.00 gross at 19 % included: net 1800 / 1.19 = 1512.61 → 1513, tax 287.
      expect(item.taxRate).toMatchObject({ name: 'DE VAT', amount: 0.19, includedInPrice: true, country: 'DE' });
      expect(item.taxedPrice).toEqual({
        totalNet: money('EUR', 1513),
        totalGross: money('EUR', 1800),
        totalTax: money('EUR', 287),
        taxPortions: [{ name: 'DE VAT', rate: 0.19, amount: money('EUR', 287) }],
      });
      expect(taxed.taxedPrice).toEqual(item.taxedPrice);
      expect(taxed.totalPrice).toEqual(money('EUR', 1800));
    });

    it('Platform with sub-rates not included in the price, per line item or per unit price (TaxCalculationMode)', async () => {
      const lineLevel = await admin.ok(
        `/${P}/carts`,
        { currency: 'USD', shippingAddress: newYork(), lineItems: [{ sku: 'shirt-m', quantity: 3, externalPrice: usd(108) }] },
        201,
      );
      // 324 net; 4 % → 12.96 → 13; 4.875 % → 15.795 → 16.
      expect(lineLevel.taxedPrice).toEqual({
        totalNet: money('USD', 324),
        totalGross: money('USD', 353),
        totalTax: money('USD', 29),
        taxPortions: [
          { name: 'State', rate: 0.04, amount: money('USD', 13) },
          { name: 'City', rate: 0.04875, amount: money('USD', 16) },
        ],
      });
      const unitLevel = await update(lineLevel, [{ action: 'changeTaxCalculationMode', taxCalculationMode: 'UnitPriceLevel' }]);
      // Per unit: 108 × 4 % = 4.32 → 4, 108 × 4.875 % = 5.265 → 5; times 3.
      expect(unitLevel.taxedPrice).toMatchObject({ totalNet: money('USD', 324), totalGross: money('USD', 351), totalTax: money('USD', 27) });
    });

    it('a tax category without a rate for the address is MissingTaxRateForCountry', async () => {
      const created = await cart({ lineItems: [{ sku: 'shirt-m' }] });
      const answer = await admin.post(`/${P}/carts/${created.id}`, {
        version: created.version,
        actions: [{ action: 'setShippingAddress', address: address('FR') }],
      });
      expect(answer.body).toMatchObject({ statusCode: 400, errors: [{ code: 'MissingTaxRateForCountry', country: 'FR' }] });
    });

    it('External: rates set from outside; Disabled: none; ExternalAmount: amounts and the total tax set from outside', async () => {
      const rate = { name: 'Ext', amount: 0.1, country: 'DE' };
      const external = await cart({ taxMode: 'External', shippingAddress: address('DE'), lineItems: [{ sku: 'shirt-m', externalTaxRate: rate }] });
      expect(external.lineItems[0].taxedPrice).toMatchObject({ totalNet: money('EUR', 900), totalGross: money('EUR', 990) });
      expect(external.taxedPrice).toMatchObject({ totalGross: money('EUR', 990) });
      const changed = await update(external, [
        { action: 'setLineItemTaxRate', lineItemId: external.lineItems[0].id, externalTaxRate: { ...rate, amount: 0.2 } },
      ]);
      expect(changed.taxedPrice.totalGross).toEqual(money('EUR', 1080));
      const wrongMode = await admin.post(`/${P}/carts/${changed.id}`, {
        version: changed.version,
        actions: [{ action: 'setCartTotalTax', externalTotalGross: eur(1) }],
      });
      expect(wrongMode.body).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidOperation' }] });

      const disabled = await update(changed, [{ action: 'changeTaxMode', taxMode: 'Disabled' }]);
      expect(disabled.taxedPrice).toBeUndefined();
      expect(disabled.lineItems[0].taxRate).toBeUndefined();

      const amounts = await update(disabled, [
        { action: 'changeTaxMode', taxMode: 'ExternalAmount' },
        { action: 'setLineItemTaxAmount', lineItemId: external.lineItems[0].id, externalTaxAmount: { totalGross: eur(1000), taxRate: rate } },
        { action: 'setCartTotalTax', externalTotalGross: eur(1000), externalTaxPortions: [{ name: 'Ext', rate: 0.1, amount: eur(100) }] },
      ]);
      expect(amounts.lineItems[0].taxedPrice).toMatchObject({ totalNet: money('EUR', 900), totalGross: money('EUR', 1000), totalTax: money('EUR', 100) });
      expect(amounts.taxedPrice).toMatchObject({ totalNet: money('EUR', 900), totalGross: money('EUR', 1000), totalTax: money('EUR', 100) });
      // A price-affecting change drops the amounts set from outside (TaxMode.raml ExternalAmount).
      const stale = await update(amounts, [{ action: 'changeLineItemQuantity', lineItemId: external.lineItems[0].id, quantity: 2 }]);
      expect(stale.taxedPrice).toBeUndefined();
      expect(stale.lineItems[0].taxedPrice).toBeUndefined();
    });
  });

  describe('shipping', () => {
    it('setShippingMethod takes the zone’s rate in the cart currency, taxed, in the total; free above freeAbove', async () => {
      const created = await cart({ shippingAddress: address('DE'), lineItems: [{ sku: 'shirt-m' }] });
      const shipped = await update(created, [{ action: 'setShippingMethod', shippingMethod: { typeId: 'shipping-method', key: 'standard' } }]);
      expect(shipped.shippingInfo).toMatchObject({
        shippingMethodName: 'Standard',
        price: money('EUR', 490),
        shippingMethod: { typeId: 'shipping-method', id: catalogue.standard.id },
        shippingMethodState: 'MatchesCart',
        taxRate: { amount: 0.19, includedInPrice: true },
        // 490 / 1.19 = 411.76 → 412.
        taxedPrice: { totalNet: money('EUR', 412), totalGross: money('EUR', 490), totalTax: money('EUR', 78) },
      });
      expect(shipped.totalPrice).toEqual(money('EUR', 1390));
      expect(shipped.taxedPrice).toMatchObject({ totalGross: money('EUR', 1390), totalNet: money('EUR', 756 + 412) });
      const free = await update(shipped, [{ action: 'changeLineItemQuantity', lineItemId: shipped.lineItems[0].id, quantity: 6 }]);
      expect(free.shippingInfo.price).toEqual(money('EUR', 0));
      expect(free.totalPrice).toEqual(money('EUR', 5400));
    });

    it('takes the CartValue tier the items reach; refuses a cart without an address, and a zone without a rate', async () => {
      const dollars = await admin.ok(
        `/${P}/carts`,
        {
          currency: 'USD',
          shippingAddress: newYork(),
          shippingMethod: { typeId: 'shipping-method', key: 'standard' },
          lineItems: [{ sku: 'shirt-m', quantity: 10 }],
        },
        201,
      );
      expect(dollars.shippingInfo.price).toEqual(money('USD', 500));
      const noAddress = await refused({ shippingMethod: { typeId: 'shipping-method', key: 'standard' } });
      expect(noAddress).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidOperation' }] });
      const noRate = await refused({ currency: 'USD', shippingAddress: address('DE'), shippingMethod: { typeId: 'shipping-method', key: 'standard' } });
      expect(noRate).toMatchObject({ statusCode: 400, errors: [{ code: 'ShippingMethodDoesNotMatchCart' }] });
    });
  });

  describe('orders from priced carts', () => {
    const order = (doc: Json) => admin.post(`/${P}/orders`, { cart: { typeId: 'cart', id: doc.id }, version: doc.version });

    it('carry the cart’s taxed price, shipping info and priced line items', async () => {
      const priced = await cart({
        shippingAddress: address('DE'),
        shippingMethod: { typeId: 'shipping-method', key: 'standard' },
        lineItems: [{ sku: 'shirt-m', quantity: 2 }],
      });
      const created = await order(priced);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.taxedPrice).toEqual(priced.taxedPrice);
      expect(created.body.shippingInfo).toMatchObject({ price: money('EUR', 490), taxedPrice: priced.shippingInfo.taxedPrice, deliveries: [] });
      expect(created.body.lineItems[0]).toMatchObject({ priceMode: 'Platform', taxedPrice: priced.lineItems[0].taxedPrice, productSlug: { en: 'shirt' } });
    });

    it('quote requests carry the cart’s taxed price, not a tax-free stand-in', async () => {
      const { customer } = await admin.ok(`/${P}/customers`, { email: 'priced-buyer@example.com', password: 'secret-123456' }, 201);
      const priced = await cart({ customerId: customer.id, shippingAddress: address('DE'), lineItems: [{ sku: 'shirt-m', quantity: 2 }] });
      expect(priced.taxedPrice.totalTax.centAmount).toBeGreaterThan(0);
      const request = await admin.ok(`/${P}/quote-requests`, { cart: { typeId: 'cart', id: priced.id }, cartVersion: priced.version }, 201);
      expect(request.taxedPrice).toEqual(priced.taxedPrice);
    });

    it('ReserveOnOrder refuses a short entry with OutOfStock and deducts available quantities; TrackOnly needs an entry', async () => {
      const entry = await admin.ok(`/${P}/inventory`, { sku: 'shirt-m', quantityOnStock: 3 }, 201);
      const stocked = await admin.ok(`/${P}/inventory`, { sku: 'shirt-l', quantityOnStock: 5, supplyChannel: { typeId: 'channel', key: 'warehouse' } }, 201);
      const tooMany = await cart({ inventoryMode: 'ReserveOnOrder', shippingAddress: address('DE'), lineItems: [{ sku: 'shirt-m', quantity: 4 }] });
      const refusal = await order(tooMany);
      expect(refusal.body).toMatchObject({ statusCode: 400, errors: [{ code: 'OutOfStock', lineItems: [tooMany.lineItems[0].id], skus: ['shirt-m'] }] });
      expect((await admin.read(`/${P}/carts/${tooMany.id}`)).cartState).toBe('Active');

      const enough = await cart({
        inventoryMode: 'ReserveOnOrder',
        shippingAddress: address('DE'),
        lineItems: [
          { sku: 'shirt-m', quantity: 2 },
          { sku: 'shirt-l', quantity: 5, supplyChannel: { typeId: 'channel', key: 'warehouse' } },
        ],
      });
      expect((await order(enough)).status).toBe(201);
      expect(await admin.read(`/${P}/inventory/${entry.id}`)).toMatchObject({ quantityOnStock: 3, availableQuantity: 1 });
      expect((await admin.read(`/${P}/inventory/${stocked.id}`)).availableQuantity).toBe(0);

      const tracked = await cart({ inventoryMode: 'TrackOnly', shippingAddress: address('DE'), lineItems: [{ sku: 'shirt-m', quantity: 5 }] });
      expect((await order(tracked)).status).toBe(201);
      expect((await admin.read(`/${P}/inventory/${entry.id}`)).availableQuantity).toBe(-4);
      const untracked = await cart({ inventoryMode: 'TrackOnly', shippingAddress: address('DE'), lineItems: [{ sku: 'mug-1' }] });
      expect((await order(untracked)).body).toMatchObject({ errors: [{ code: 'OutOfStock', skus: ['mug-1'] }] });
    });
  });
});
