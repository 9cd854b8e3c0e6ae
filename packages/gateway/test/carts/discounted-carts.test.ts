/**
 * Issue 29, discounts applied to carts (types/cart/Cart.raml, LineItem.discountedPricePerQuantity,
 * DiscountOnTotalPrice, DiscountCodeInfo, DiscountCodeState, DiscountCodeNonApplicableError): Product
 * Discounts on Platform line items, Cart Discounts on line items, shipping and the total, discount
 * codes and their states, stacking, taxes on the discounted amounts and orders that carry it all and
 * count a code's applications. Through HTTP, against the catalogue of catalogue-fixture.ts (shirt-m
 * EUR 10.00, in DE 9.00; shirt-l 11.00; mug-1 5.00; DE VAT 19 % included; shipping 4.90 in Europe).
 * Each cart discount's cart predicate names the customer e-mail of the one test it belongs to.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { eur, seedCatalogue, SCOPES } from './catalogue-fixture.js';
import { address, callerWith, type Caller, type Json } from './commerce.js';

const P = 'discounted-carts';
const money = (centAmount: number) => ({ type: 'centPrecision', currencyCode: 'EUR', centAmount, fractionDigits: 2 });
const forEmail = (email: string) => `customerEmail = "${email}"`;
const onSku = (sku: string) => ({ type: 'lineItems', predicate: `sku = "${sku}"` });

describe('carts with discounts', { timeout: 90_000 }, () => {
  let gateway: TestGateway;
  let admin: Caller;
  let discounts = 0;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    admin = await callerWith(gateway, P, SCOPES);
    await seedCatalogue(admin, P);
  }, 240_000);
  afterAll(() => gateway?.close());

  const cart = (draft: Json) => admin.ok(`/${P}/carts`, { currency: 'EUR', ...draft }, 201);
  const update = (doc: Json, actions: Json[]) => admin.update(`/${P}/carts/${doc.id}`, doc.version, actions);
  const cartDiscount = (draft: Json): Promise<Json> => {
    discounts += 1;
    // Unique, below the explicit ones (0.9…), never ending in 0 (a sortOrder has no trailing zeros).
    return admin.ok(`/${P}/cart-discounts`, { name: { en: 'Discount' }, sortOrder: `0.1${discounts}1`, isActive: true, cartPredicate: '1 = 1', ...draft }, 201);
  };
  const discountCode = (code: string, discounts: Json[], extra: Json = {}) =>
    admin.ok(`/${P}/discount-codes`, { code, cartDiscounts: discounts.map(({ id }) => ({ typeId: 'cart-discount', id })), ...extra }, 201);
  const portion = (discount: Json, centAmount: number) => ({ discount: { typeId: 'cart-discount', id: discount.id }, discountedAmount: money(centAmount) });
  const order = (doc: Json) => admin.post(`/${P}/orders`, { cart: { typeId: 'cart', id: doc.id }, version: doc.version });

  it('a Product Discount lowers a Platform line item’s price, and cart discounts start from it', async () => {
    const productDiscount = await admin.ok(
      `/${P}/product-discounts`,
      { name: { en: 'Large shirts' }, value: { type: 'relative', permyriad: 1000 }, predicate: 'sku = "shirt-l"', sortOrder: '0.5', isActive: true },
      201,
    );
    const plain = await cart({ lineItems: [{ sku: 'shirt-l', quantity: 2 }] });
    expect(plain.lineItems[0].price).toMatchObject({
      value: money(1100),
      discounted: { value: money(990), discount: { typeId: 'product-discount', id: productDiscount.id } },
    });
    expect(plain.lineItems[0].totalPrice).toEqual(money(1980));
    expect(plain.totalPrice).toEqual(money(1980));

    const quarter = await cartDiscount({
      value: { type: 'relative', permyriad: 2500 },
      target: onSku('shirt-l'),
      cartPredicate: forEmail('large@example.com'),
    });
    const both = await cart({ customerEmail: 'large@example.com', lineItems: [{ sku: 'shirt-l', quantity: 2 }] });
    // 990 - 25 % = 742.5, rounded half even to 742.
    expect(both.lineItems[0].discountedPricePerQuantity).toEqual([
      { quantity: 2, discountedPrice: { value: money(742), includedDiscounts: [portion(quarter, 248)] } },
    ]);
    expect(both.totalPrice).toEqual(money(1484));

    // An external price is not the catalogue's: no Product Discount.
    const external = await cart({ lineItems: [{ sku: 'shirt-l', externalPrice: eur(1100) }] });
    expect(external.lineItems[0].price.discounted).toBeUndefined();
    expect(external.totalPrice).toEqual(money(1100));
  });

  it('relative and absolute cart discounts on line items fill discountedPricePerQuantity and lower the totals', async () => {
    const relative = await cartDiscount({
      value: { type: 'relative', permyriad: 2000 },
      target: onSku('shirt-m'),
      cartPredicate: forEmail('relative@example.com'),
    });
    const relativeCart = await cart({ customerEmail: 'relative@example.com', lineItems: [{ sku: 'shirt-m', quantity: 3 }, { sku: 'mug-1' }] });
    const [shirts, mug] = relativeCart.lineItems;
    expect(shirts.discountedPricePerQuantity).toEqual([{ quantity: 3, discountedPrice: { value: money(800), includedDiscounts: [portion(relative, 200)] } }]);
    expect(shirts.totalPrice).toEqual(money(2400));
    expect(mug.discountedPricePerQuantity).toEqual([]);
    expect(relativeCart.totalPrice).toEqual(money(2900));

    const absolute = await cartDiscount({
      value: { type: 'absolute', money: [eur(300)] },
      target: onSku('shirt-m'),
      cartPredicate: forEmail('absolute@example.com'),
    });
    const absoluteCart = await cart({ customerEmail: 'absolute@example.com', lineItems: [{ sku: 'shirt-m', quantity: 2 }] });
    // ProportionateDistribution (the default): 3.00 over two units of 10.00, 1.50 each.
    expect(absoluteCart.lineItems[0].discountedPricePerQuantity).toEqual([
      { quantity: 2, discountedPrice: { value: money(850), includedDiscounts: [portion(absolute, 150)] } },
    ]);
    expect(absoluteCart.totalPrice).toEqual(money(1700));
    // A cart the predicate does not match is not discounted.
    expect((await cart({ customerEmail: 'other@example.com', lineItems: [{ sku: 'shirt-m', quantity: 2 }] })).totalPrice).toEqual(money(2000));
  });

  it('a discount on shipping, with taxes on the discounted amounts', async () => {
    const shipping = await cartDiscount({
      value: { type: 'absolute', money: [eur(200)] },
      target: { type: 'shipping' },
      cartPredicate: forEmail('shipping@example.com'),
    });
    const shipped = await cart({
      customerEmail: 'shipping@example.com',
      shippingAddress: address('DE'),
      lineItems: [{ sku: 'shirt-m' }],
      shippingMethod: { typeId: 'shipping-method', key: 'standard' },
    });
    expect(shipped.shippingInfo).toMatchObject({
      price: money(490),
      discountedPrice: { value: money(290), includedDiscounts: [portion(shipping, 200)] },
    });
    expect(shipped.totalPrice).toEqual(money(1190));
    // 19 % included: 9.00 -> net round(900 / 1.19) = 756; 2.90 -> net round(290 / 1.19) = 244.
    expect(shipped.shippingInfo.taxedPrice).toMatchObject({ totalNet: money(244), totalGross: money(290), totalTax: money(46) });
    expect(shipped.taxedPrice).toMatchObject({ totalNet: money(1000), totalGross: money(1190), totalTax: money(190) });
  });

  it('UnitPriceLevel taxes each discounted unit (the undiscounted ones at the unit price)', async () => {
    await cartDiscount({
      value: { type: 'fixed', money: [{ currencyCode: 'USD', centAmount: 1300 }] },
      target: { type: 'multiBuyLineItems', predicate: 'sku = "shirt-m"', triggerQuantity: 3, discountedQuantity: 2, selectionMode: 'Cheapest' },
      cartPredicate: forEmail('unit@example.com'),
    });
    const newYork = { ...address('US'), state: 'New York' };
    const taxed = await admin.ok(
      `/${P}/carts`,
      {
        currency: 'USD',
        customerEmail: 'unit@example.com',
        taxCalculationMode: 'UnitPriceLevel',
        shippingAddress: newYork,
        lineItems: [{ sku: 'shirt-m', quantity: 3 }],
      },
      201,
    );
    const usd = (centAmount: number) => ({ type: 'centPrecision', currencyCode: 'USD', centAmount, fractionDigits: 2 });
    // Fixed 13.00 for two of three units (15.00 each), one at 15.00; NY adds State 4 % and City 4.875 % per unit:
    // 13.00 -> 52 and round(63.375) = 63; 15.00 -> 60 and round(73.125) = 73. State 2 x 52 + 60 = 164,
    // City 2 x 63 + 73 = 199 (taxing the line's 41.00 at once would give round(199.875) = 200).
    expect(taxed.lineItems[0].discountedPricePerQuantity).toEqual([
      { quantity: 2, discountedPrice: { value: usd(1300), includedDiscounts: [expect.any(Object)] } },
    ]);
    expect(taxed.lineItems[0].totalPrice).toEqual(usd(4100));
    expect(taxed.lineItems[0].taxedPrice).toMatchObject({ totalNet: usd(4100), totalTax: usd(363), totalGross: usd(4463) });
    expect(taxed.lineItems[0].taxedPrice.taxPortions).toEqual([
      { name: 'State', rate: 0.04, amount: usd(164) },
      { name: 'City', rate: 0.04875, amount: usd(199) },
    ]);
  });

  it('a quote request carries the discounted line items and total', async () => {
    await cartDiscount({ value: { type: 'relative', permyriad: 1000 }, target: onSku('mug-1'), cartPredicate: forEmail('quote@example.com') });
    const { customer } = await admin.ok(`/${P}/customers`, { email: 'quote@example.com', password: 'secret-123' }, 201);
    const quoted = await cart({
      customerId: customer.id,
      customerEmail: 'quote@example.com',
      shippingAddress: address('DE'),
      lineItems: [{ sku: 'mug-1', quantity: 2 }],
    });
    expect(quoted.totalPrice).toEqual(money(900));
    const request = await admin.ok(`/${P}/quote-requests`, { cart: { typeId: 'cart', id: quoted.id }, cartVersion: quoted.version }, 201);
    expect(request.lineItems[0].discountedPricePerQuantity).toEqual(quoted.lineItems[0].discountedPricePerQuantity);
    expect(request).toMatchObject({ totalPrice: money(900), taxedPrice: { totalGross: money(900) } });
  });

  it('a discount on the total price: discountOnTotalPrice with its share of net and gross', async () => {
    const total = await cartDiscount({
      value: { type: 'relative', permyriad: 1000 },
      target: { type: 'totalPrice' },
      cartPredicate: forEmail('total@example.com'),
    });
    const untaxed = await cart({ customerEmail: 'total@example.com', lineItems: [{ sku: 'shirt-m', quantity: 2 }] });
    expect(untaxed.discountOnTotalPrice).toEqual({ discountedAmount: money(200), includedDiscounts: [portion(total, 200)] });
    expect(untaxed.lineItems[0].totalPrice).toEqual(money(2000));
    expect(untaxed.totalPrice).toEqual(money(1800));

    const taxed = await update(untaxed, [{ action: 'setShippingAddress', address: address('DE') }]);
    // Items: 2 x 9.00 = 18.00 gross, net round(1800 / 1.19) = 1513. 10 % off: gross 180, net round(151.3) = 151.
    expect(taxed.lineItems[0].taxedPrice).toMatchObject({ totalNet: money(1513), totalGross: money(1800), totalTax: money(287) });
    expect(taxed.discountOnTotalPrice).toEqual({
      discountedAmount: money(180),
      includedDiscounts: [portion(total, 180)],
      discountedNetAmount: money(151),
      discountedGrossAmount: money(180),
    });
    expect(taxed.totalPrice).toEqual(money(1620));
    expect(taxed.taxedPrice).toMatchObject({ totalNet: money(1362), totalGross: money(1620), totalTax: money(258) });
    expect(taxed.taxedPrice.taxPortions).toEqual([{ name: 'DE VAT', rate: 0.19, amount: money(258) }]);
  });

  it('a discount that requires a code applies only after addDiscountCode; removeDiscountCode restores the prices', async () => {
    const half = await cartDiscount({ value: { type: 'relative', permyriad: 5000 }, target: onSku('mug-1'), requiresDiscountCode: true });
    const code = await discountCode('HALF', [half]);
    const plain = await cart({ lineItems: [{ sku: 'mug-1', quantity: 2 }] });
    expect(plain.totalPrice).toEqual(money(1000));

    const discounted = await update(plain, [{ action: 'addDiscountCode', code: 'HALF' }]);
    expect(discounted.discountCodes).toEqual([{ discountCode: { typeId: 'discount-code', id: code.id }, state: 'MatchesCart' }]);
    expect(discounted.lineItems[0].discountedPricePerQuantity).toEqual([
      { quantity: 2, discountedPrice: { value: money(250), includedDiscounts: [portion(half, 250)] } },
    ]);
    expect(discounted.totalPrice).toEqual(money(500));
    const expanded = await admin.read(`/${P}/carts/${plain.id}?expand=discountCodes[*].discountCode`);
    expect(expanded.discountCodes[0].discountCode.obj).toMatchObject({ code: 'HALF' });

    const restored = await update(discounted, [{ action: 'removeDiscountCode', discountCode: { typeId: 'discount-code', id: code.id } }]);
    expect(restored.discountCodes).toEqual([]);
    expect(restored.lineItems[0].discountedPricePerQuantity).toEqual([]);
    expect(restored.totalPrice).toEqual(money(1000));

    // The spec's form of the draft: codes by their text.
    const drafted = await cart({ discountCodes: ['HALF'], lineItems: [{ sku: 'mug-1' }] });
    expect(drafted).toMatchObject({ discountCodes: [{ discountCode: { id: code.id }, state: 'MatchesCart' }], totalPrice: money(250) });
  });

  it('a code stored as {code} before DiscountCodeInfo is looked up at the cart’s next write', async () => {
    const discount = await cartDiscount({ value: { type: 'relative', permyriad: 1000 }, target: onSku('mug-1'), requiresDiscountCode: true });
    const code = await discountCode('LEGACY', [discount]);
    const stored = await admin.ok(`/${P}/carts`, { currency: 'EUR', lineItems: [{ sku: 'mug-1' }] }, 201);
    const { id: _id, version: _version, createdAt: _createdAt, lastModifiedAt: _lastModifiedAt, ...fields } = stored;
    const legacy = await gateway.gateway.documents.create<{ id: string; version: number; createdAt: string; lastModifiedAt: string } & Json>(
      { projectKey: P },
      'cart',
      {
        ...fields,
        discountCodes: [{ code: 'LEGACY' }],
      },
    );
    expect((await admin.read(`/${P}/carts/${legacy.id}`)).discountCodes).toEqual([]);
    const written = await update(legacy, [{ action: 'recalculate' }]);
    expect(written.discountCodes).toEqual([{ discountCode: { typeId: 'discount-code', id: code.id }, state: 'MatchesCart' }]);
    expect(written.totalPrice).toEqual(money(450));
  });

  it('answers DiscountCodeNonApplicable for an unknown, inactive or expired code', async () => {
    const plain = await cart({ lineItems: [{ sku: 'mug-1' }] });
    const unknown = await admin.post(`/${P}/carts/${plain.id}`, { version: plain.version, actions: [{ action: 'addDiscountCode', code: 'NOPE' }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0]).toMatchObject({ code: 'DiscountCodeNonApplicable', discountCode: 'NOPE', reason: 'DoesNotExist' });
    const drafted = await admin.post(`/${P}/carts`, { currency: 'EUR', discountCodes: ['NOPE'] });
    expect(drafted.status).toBe(400);
    expect(drafted.body.errors[0]).toMatchObject({ code: 'DiscountCodeNonApplicable', reason: 'DoesNotExist' });

    const discount = await cartDiscount({ value: { type: 'relative', permyriad: 100 }, target: onSku('mug-1'), requiresDiscountCode: true });
    await discountCode('EXPIRED', [discount], { validUntil: '2020-01-01T00:00:00.000Z' });
    await discountCode('OFF', [discount], { isActive: false });
    const expired = await admin.post(`/${P}/carts/${plain.id}`, { version: plain.version, actions: [{ action: 'addDiscountCode', code: 'EXPIRED' }] });
    expect(expired.body.errors[0]).toMatchObject({
      code: 'DiscountCodeNonApplicable',
      reason: 'TimeRangeNonApplicable',
      validUntil: '2020-01-01T00:00:00.000Z',
    });
    const inactive = await admin.post(`/${P}/carts/${plain.id}`, { version: plain.version, actions: [{ action: 'addDiscountCode', code: 'OFF' }] });
    expect(inactive.status).toBe(400);
    expect(inactive.body.errors[0].code).toBe('DiscountCodeNonApplicable');
  });

  it('DoesNotMatchCart when the code’s cart predicate fails; ApplicationStoppedByPreviousDiscount after StopAfterThisDiscount', async () => {
    const french = await cartDiscount({ value: { type: 'relative', permyriad: 5000 }, target: onSku('mug-1'), requiresDiscountCode: true });
    await discountCode('FRANCE', [french], { cartPredicate: 'country = "FR"' });
    const unmatched = await cart({ country: 'DE', discountCodes: ['FRANCE'], lineItems: [{ sku: 'mug-1' }] });
    expect(unmatched.discountCodes[0].state).toBe('DoesNotMatchCart');
    expect(unmatched.totalPrice).toEqual(money(500));
    const matched = await update(unmatched, [{ action: 'setCountry', country: 'FR' }]);
    expect(matched.discountCodes[0].state).toBe('MatchesCart');
    expect(matched.totalPrice).toEqual(money(250));

    const first = await cartDiscount({
      value: { type: 'relative', permyriad: 1000 },
      target: onSku('shirt-m'),
      cartPredicate: forEmail('stack@example.com'),
      stackingMode: 'StopAfterThisDiscount',
      sortOrder: '0.95',
    });
    const later = await cartDiscount({ value: { type: 'relative', permyriad: 5000 }, target: onSku('shirt-m'), requiresDiscountCode: true, sortOrder: '0.94' });
    await discountCode('STOPPED', [later]);
    const stacked = await cart({ customerEmail: 'stack@example.com', discountCodes: ['STOPPED'], lineItems: [{ sku: 'shirt-m' }] });
    expect(stacked.discountCodes[0].state).toBe('ApplicationStoppedByPreviousDiscount');
    expect(stacked.lineItems[0].discountedPricePerQuantity).toEqual([
      { quantity: 1, discountedPrice: { value: money(900), includedDiscounts: [portion(first, 100)] } },
    ]);
    expect(stacked.totalPrice).toEqual(money(900));
  });

  it('a cart discount created after the cart’s last write applies at its next write (recalculate)', async () => {
    const early = await cart({ customerEmail: 'late@example.com', lineItems: [{ sku: 'shirt-m' }] });
    expect(early.totalPrice).toEqual(money(1000));
    await cartDiscount({ value: { type: 'absolute', money: [eur(100)] }, target: onSku('shirt-m'), cartPredicate: forEmail('late@example.com') });
    expect((await admin.read(`/${P}/carts/${early.id}`)).totalPrice).toEqual(money(1000));
    expect((await update(early, [{ action: 'recalculate' }])).totalPrice).toEqual(money(900));
  });

  it('an order carries the discounts and counts the code: maxApplications reached after it', async () => {
    const euro = await cartDiscount({ value: { type: 'absolute', money: [eur(100)] }, target: onSku('mug-1'), requiresDiscountCode: true });
    const code = await discountCode('ONCE', [euro], { maxApplications: 1 });
    const orderDraft = { shippingAddress: address('DE'), discountCodes: ['ONCE'], lineItems: [{ sku: 'mug-1' }] };
    const first = await cart(orderDraft);
    const waiting = await cart(orderDraft);
    expect(waiting.discountCodes[0].state).toBe('MatchesCart');

    const created = await order(first);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      discountCodes: [{ discountCode: { typeId: 'discount-code', id: code.id }, state: 'MatchesCart' }],
      totalPrice: money(400),
      taxedPrice: { totalGross: money(400) },
    });
    expect(created.body.lineItems[0].discountedPricePerQuantity).toEqual([
      { quantity: 1, discountedPrice: { value: money(400), includedDiscounts: [portion(euro, 100)] } },
    ]);

    // Counted within the order's transaction: the cart written before the order still says MatchesCart, but cannot be ordered.
    const refused = await order(waiting);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ code: 'DiscountCodeNonApplicable', discountCodeId: code.id });
    const again = await update(waiting, [{ action: 'recalculate' }]);
    expect(again.discountCodes[0].state).toBe('MaxApplicationReached');
    expect(again.totalPrice).toEqual(money(500));
  });

  it('addPayment and removePayment on a cart; its order takes the payments over', async () => {
    const payment = await admin.ok(`/${P}/payments`, { key: 'cart-payment', amountPlanned: eur(500) }, 201);
    const shopping = await cart({ shippingAddress: address('DE'), lineItems: [{ sku: 'mug-1' }] });
    const paid = await update(shopping, [{ action: 'addPayment', payment: { typeId: 'payment', key: 'cart-payment' } }]);
    expect(paid.paymentInfo).toEqual({ payments: [{ typeId: 'payment', id: payment.id }] });
    const expanded = await admin.read(`/${P}/carts/${paid.id}?expand=paymentInfo.payments[*]`);
    expect(expanded.paymentInfo.payments[0].obj).toMatchObject({ key: 'cart-payment' });

    const other = await cart({ lineItems: [{ sku: 'mug-1' }] });
    const taken = await admin.post(`/${P}/carts/${other.id}`, {
      version: other.version,
      actions: [{ action: 'addPayment', payment: { typeId: 'payment', id: payment.id } }],
    });
    expect(taken.status).toBe(400);
    expect(taken.body.errors[0].code).toBe('InvalidOperation');

    const unpaid = await update(paid, [{ action: 'removePayment', payment: { typeId: 'payment', id: payment.id } }]);
    expect(unpaid.paymentInfo).toBeUndefined();
    const repaid = await update(unpaid, [{ action: 'addPayment', payment: { typeId: 'payment', id: payment.id } }]);
    const ordered = await order(repaid);
    expect(ordered.status).toBe(201);
    expect(ordered.body.paymentInfo).toEqual({ payments: [{ typeId: 'payment', id: payment.id }] });
  });
});
