/**
 * Issue 29, order edits staging the StagedOrderUpdateActions a cart also has (reference
 * types/order-edit/updates/StagedOrder*Action.raml): line items and custom line items, prices,
 * taxes, shipping methods, discount codes, modes, country and customer group. Each is applied by
 * the carts' handlers on the staged order, so the preview (OrderEditPreviewSuccess with its
 * messagePayloads) and `apply` give the re-priced and re-taxed order; the totals and taxes are
 * computed here independently of the gateway's code.
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eur, seedCatalogue, type Catalogue } from '../carts/catalogue-fixture.js';
import { address, type Caller, type Json } from '../carts/commerce.js';
import { messagesOf } from '../orders/fixtures.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, subscribedQueue } from '../subscriptions/support.js';

const P = 'staged-cart-actions';
const money = (centAmount: number) => ({ type: 'centPrecision', currencyCode: 'EUR', centAmount, fractionDigits: 2 });
/** The German 19 % VAT of the catalogue is included in the prices: net = gross / 1.19, rounded. */
const netOf = (gross: number) => Math.round(gross / 1.19);
const standardMethod = { typeId: 'shipping-method', key: 'standard' };

describe('order edits: staged cart actions re-price and re-tax the order', { timeout: 90_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let admin: Caller;
  let catalogue: Catalogue;
  /** The project's initial LineItemState: a new order's items, and units an edit adds, start in it. */
  let initial: Json;

  beforeAll(async () => {
    setup = await startSqsGateway(P, ['manage_project']);
    ({ sqs, admin } = setup);
    catalogue = await seedCatalogue(admin, P);
    initial = await admin.ok(`/${P}/states`, { key: 'Initial', type: 'LineItemState', initial: true }, 201);
  }, 240_000);
  afterAll(() => setup?.close());

  /** A German order: 2 shirts at 9.00 (the DE price), a 3.00 gift wrap taxed by the standard category, the standard shipping (4.90). */
  async function pricedOrder(draft: Json = {}): Promise<Json> {
    const cart = await admin.ok(
      `/${P}/carts`,
      {
        currency: 'EUR',
        country: 'DE',
        shippingAddress: address('DE'),
        lineItems: [{ sku: 'shirt-m', quantity: 2, key: 'shirts' }],
        customLineItems: [
          { name: { en: 'Gift wrap' }, slug: 'wrap', key: 'wrap', quantity: 1, money: eur(300), taxCategory: { typeId: 'tax-category', key: 'standard' } },
        ],
        shippingMethod: standardMethod,
        ...draft,
      },
      201,
    );
    return admin.ok(`/${P}/orders`, { cart: { id: cart.id }, version: cart.version }, 201);
  }

  async function staged(order: Json, stagedActions: Json[]): Promise<Json> {
    return admin.ok(`/${P}/order-edits`, { resource: { typeId: 'order', id: order.id }, stagedActions }, 201);
  }

  async function applied(order: Json, edit: Json): Promise<Json> {
    await admin.ok(`/${P}/order-edits/${edit.id}/apply`, { editVersion: edit.version, resourceVersion: order.version });
    return admin.read(`/${P}/orders/${order.id}`);
  }

  /** The order's and the preview's totals: gross, and the net and tax of the included 19 % VAT, item by item. */
  function expectTotals(order: Json, itemGrosses: number[]): void {
    const gross = itemGrosses.reduce((total, cents) => total + cents, 0);
    const net = itemGrosses.reduce((total, cents) => total + netOf(cents), 0);
    expect(order.totalPrice).toEqual(money(gross));
    expect(order.taxedPrice).toMatchObject({ totalGross: money(gross), totalNet: money(net), totalTax: money(gross - net) });
  }

  const typesOf = (payloads: Json[]) => payloads.map((payload) => payload.type);

  it('addLineItem, changeLineItemQuantity and removeLineItem: preview with messages, then apply re-prices, re-taxes and keeps item states', async () => {
    const order = await pricedOrder();
    expect(order.lineItems[0].state).toEqual([{ quantity: 2, state: { typeId: 'state', id: initial.id } }]);
    const edit = await staged(order, [
      { action: 'addLineItem', sku: 'mug-1', quantity: 3, key: 'mugs' },
      { action: 'changeLineItemQuantity', lineItemKey: 'shirts', quantity: 5 },
      { action: 'removeLineItem', lineItemKey: 'mugs', quantity: 1 },
    ]);
    // 5 shirts at 9.00 and 2 mugs at 5.00 (standalone price) and the 3.00 wrap: 58.00, above the rate's freeAbove (50.00).
    const { preview, messagePayloads } = edit.result;
    expect(edit.result.type).toBe('PreviewSuccess');
    expect(preview).toMatchObject({ version: order.version, shippingInfo: { price: money(0), shippingMethodState: 'MatchesCart', deliveries: [] } });
    expectTotals(preview, [4500, 1000, 300, 0]);
    expect(typesOf(messagePayloads)).toEqual(['OrderLineItemAdded', 'OrderLineItemRemoved']);
    const mugs = preview.lineItems.find((item: Json) => item.key === 'mugs');
    expect(messagePayloads[0]).toMatchObject({ lineItem: { key: 'mugs', quantity: 3, price: { value: money(500) } }, addedQuantity: 3 });
    expect(messagePayloads[1]).toEqual({
      type: 'OrderLineItemRemoved',
      lineItemId: mugs.id,
      lineItemKey: 'mugs',
      removedQuantity: 1,
      newQuantity: 2,
      newState: [{ quantity: 2, state: { typeId: 'state', id: initial.id } }],
      newTotalPrice: money(5800),
      newTaxedPrice: mugs.taxedPrice,
      newPrice: mugs.price,
    });
    // The preview changes nothing.
    expect((await admin.read(`/${P}/orders/${order.id}`)).version).toBe(order.version);

    const edited = await applied(order, edit);
    expect(edited.version).toBe(order.version + 1);
    expectTotals(edited, [4500, 1000, 300, 0]);
    expect(edited.lineItems.map((item: Json) => [item.key, item.quantity, item.totalPrice.centAmount, item.state[0].quantity])).toEqual([
      ['shirts', 5, 4500, 5],
      ['mugs', 2, 1000, 2],
    ]);
    const messages = await messagesOf(admin, P, order.id);
    expect(typesOf(messages.slice(-3))).toEqual(['OrderLineItemAdded', 'OrderLineItemRemoved', 'OrderEditApplied']);
    expect(messages.at(-1)).toMatchObject({ result: { excerptBeforeEdit: { totalPrice: money(2590) }, excerptAfterEdit: { totalPrice: money(5800) } } });
  });

  it('addCustomLineItem, changeCustomLineItemQuantity, changeCustomLineItemMoney and removeCustomLineItem', async () => {
    const order = await pricedOrder();
    const engraving = {
      name: { en: 'Engraving' },
      slug: 'engraving',
      key: 'engraving',
      money: eur(1000),
      taxCategory: { typeId: 'tax-category', key: 'standard' },
    };
    const edit = await staged(order, [
      { action: 'addCustomLineItem', ...engraving },
      { action: 'changeCustomLineItemQuantity', customLineItemKey: 'engraving', quantity: 2 },
      { action: 'changeCustomLineItemMoney', customLineItemKey: 'wrap', money: eur(400) },
      { action: 'removeCustomLineItem', customLineItemKey: 'wrap' },
    ]);
    const { preview, messagePayloads } = edit.result;
    // 2 shirts (18.00), 2 engravings (20.00), shipping 4.90 (below freeAbove).
    expectTotals(preview, [1800, 2000, 490]);
    expect(messagePayloads).toMatchObject([
      { type: 'OrderCustomLineItemAdded', customLineItem: { key: 'engraving', quantity: 1, totalPrice: money(1000) } },
      { type: 'OrderCustomLineItemQuantityChanged', customLineItemKey: 'engraving', quantity: 2, oldQuantity: 1 },
      { type: 'OrderCustomLineItemRemoved', customLineItemKey: 'wrap', customLineItemId: order.customLineItems[0].id, customLineItem: { money: money(400) } },
    ]);
    const edited = await applied(order, edit);
    expectTotals(edited, [1800, 2000, 490]);
    expect(edited.customLineItems).toMatchObject([{ key: 'engraving', quantity: 2, state: [{ quantity: 2, state: { id: initial.id } }] }]);
  });

  it('setLineItemPrice, setLineItemTotalPrice, setLineItemDistributionChannel, setCustomerGroup and setCountry select the prices again', async () => {
    const order = await pricedOrder();
    const external = await staged(order, [
      { action: 'setLineItemPrice', lineItemKey: 'shirts', externalPrice: eur(1234) },
      { action: 'setLineItemTotalPrice', lineItemKey: 'shirts', externalTotalPrice: { price: eur(1234), totalPrice: eur(2000) } },
    ]);
    expect(external.result.preview.lineItems[0]).toMatchObject({ priceMode: 'ExternalTotal', totalPrice: money(2000) });
    expectTotals(external.result.preview, [2000, 300, 490]);
    expect(external.result.messagePayloads).toEqual([]);

    // The channel's price (7.00), the customer group's (8.00) without it, the price without country (10.00) in Austria.
    const channel = await staged(order, [
      { action: 'setLineItemDistributionChannel', lineItemKey: 'shirts', distributionChannel: { typeId: 'channel', key: 'shop' } },
    ]);
    expect(channel.result.messagePayloads).toEqual([
      {
        type: 'OrderLineItemDistributionChannelSet',
        lineItemId: order.lineItems[0].id,
        lineItemKey: 'shirts',
        distributionChannel: { typeId: 'channel', id: catalogue.shop.id },
      },
    ]);
    expectTotals(channel.result.preview, [1400, 300, 490]);
    const group = await staged(order, [
      { action: 'setCountry', country: 'AT' },
      { action: 'setCustomerGroup', customerGroup: { typeId: 'customer-group', key: 'vip' } },
    ]);
    expect(group.result.messagePayloads).toEqual([{ type: 'OrderCustomerGroupSet', customerGroup: { typeId: 'customer-group', id: catalogue.vip.id } }]);
    expect(group.result.preview).toMatchObject({ country: 'AT', customerGroup: { id: catalogue.vip.id }, lineItems: [{ totalPrice: money(1600) }] });
    const edited = await applied(order, group);
    expect(edited).toMatchObject({ version: order.version + 1, country: 'AT', lineItems: [{ price: { value: money(800) } }] });
    expectTotals(edited, [1600, 300, 490]);
  });

  it('External and ExternalAmount tax modes: changeTaxMode and the tax rate and amount actions; the rounding and calculation modes', async () => {
    const order = await pricedOrder();
    const rate = (amount: number) => ({ name: 'Ext', amount, country: 'DE', includedInPrice: false });
    const external = await staged(order, [
      { action: 'changeTaxMode', taxMode: 'External' },
      { action: 'setLineItemTaxRate', lineItemKey: 'shirts', externalTaxRate: rate(0.1) },
      { action: 'setCustomLineItemTaxRate', customLineItemKey: 'wrap', externalTaxRate: rate(0.1) },
      { action: 'setShippingMethodTaxRate', externalTaxRate: rate(0.1) },
      { action: 'changeTaxRoundingMode', taxRoundingMode: 'HalfUp' },
      { action: 'changeTaxCalculationMode', taxCalculationMode: 'UnitPriceLevel' },
      { action: 'changePriceRoundingMode', priceRoundingMode: 'HalfDown' },
    ]);
    const preview = external.result.preview;
    expect(preview).toMatchObject({ taxMode: 'External', taxRoundingMode: 'HalfUp', taxCalculationMode: 'UnitPriceLevel', priceRoundingMode: 'HalfDown' });
    // 10 % added to 25.90: the unit-level tax of a shirt is 0.90, so 1.80 + 0.30 + 0.49.
    expect(preview.taxedPrice).toMatchObject({ totalNet: money(2590), totalGross: money(2590 + 180 + 30 + 49), totalTax: money(259) });
    const edited = await applied(order, external);
    expect(edited.taxedPrice.totalGross).toEqual(money(2849));

    const amounts = await staged(edited, [
      { action: 'changeTaxMode', taxMode: 'ExternalAmount' },
      { action: 'setLineItemTaxAmount', lineItemKey: 'shirts', externalTaxAmount: { totalGross: eur(2000), taxRate: rate(0.11) } },
      { action: 'setCustomLineItemTaxAmount', customLineItemKey: 'wrap', externalTaxAmount: { totalGross: eur(330), taxRate: rate(0.1) } },
      { action: 'setShippingMethodTaxAmount', externalTaxAmount: { totalGross: eur(539), taxRate: rate(0.1) } },
      { action: 'setOrderTotalTax', externalTotalGross: eur(2869), externalTaxPortions: [{ rate: 0.1, amount: eur(279), name: 'Ext' }] },
    ]);
    expect(amounts.result.preview.lineItems[0].taxedPrice).toMatchObject({ totalNet: money(1800), totalGross: money(2000), totalTax: money(200) });
    expect(amounts.result.preview.shippingInfo.taxedPrice).toMatchObject({ totalGross: money(539) });
    expect(amounts.result.preview.taxedPrice).toMatchObject({ totalNet: money(2590), totalGross: money(2869), totalTax: money(279) });
    expect((await applied(edited, amounts)).taxedPrice.totalTax).toEqual(money(279));
  });

  it('setShippingMethod, setShippingAddressAndShippingMethod and setShippingRateInput, with OrderShippingInfoSet and OrderShippingRateInputSet', async () => {
    const order = await pricedOrder();
    const removed = await staged(order, [{ action: 'setShippingMethod' }]);
    expect(removed.result.messagePayloads).toEqual([{ type: 'OrderShippingInfoSet', oldShippingInfo: order.shippingInfo }]);
    expectTotals(removed.result.preview, [1800, 300]);
    expect(removed.result.preview).not.toHaveProperty('shippingInfo');

    const moved = address('DE', { streetName: 'Nebenstraße' });
    const both = await staged(order, [
      { action: 'setShippingMethod' },
      { action: 'setShippingAddressAndShippingMethod', address: moved, shippingMethod: standardMethod },
      { action: 'setShippingRateInput', shippingRateInput: { type: 'Score', score: 2 } },
    ]);
    const [, addressSet, infoSet, inputSet] = both.result.messagePayloads;
    expect(typesOf(both.result.messagePayloads)).toEqual([
      'OrderShippingInfoSet',
      'OrderShippingAddressSet',
      'OrderShippingInfoSet',
      'OrderShippingRateInputSet',
    ]);
    expect(addressSet).toMatchObject({ address: { streetName: 'Nebenstraße' }, oldAddress: { streetName: 'Hauptstraße' } });
    expect(infoSet).toMatchObject({ shippingInfo: { shippingMethodName: 'Standard', price: money(490), shippingMethod: { id: catalogue.standard.id } } });
    expect(infoSet).not.toHaveProperty('oldShippingInfo');
    expect(inputSet).toEqual({ type: 'OrderShippingRateInputSet', shippingRateInput: { type: 'Score', score: 2 } });
    const edited = await applied(order, both);
    expect(edited).toMatchObject({
      shippingAddress: { streetName: 'Nebenstraße' },
      shippingRateInput: { type: 'Score', score: 2 },
      shippingInfo: { deliveries: [] },
    });
    expectTotals(edited, [1800, 300, 490]);
  });

  it('setCustomShippingMethod and setShippingAddressAndCustomShippingMethod price and tax the custom rate', async () => {
    const order = await pricedOrder();
    const courier = { shippingMethodName: 'Courier', shippingRate: { price: eur(990) }, taxCategory: { typeId: 'tax-category', key: 'standard' } };
    const custom = await staged(order, [{ action: 'setCustomShippingMethod', ...courier }]);
    expect(custom.result.messagePayloads).toMatchObject([
      { type: 'OrderShippingInfoSet', shippingInfo: { shippingMethodName: 'Courier', price: money(990) }, oldShippingInfo: { shippingMethodName: 'Standard' } },
    ]);
    expectTotals(custom.result.preview, [1800, 300, 990]);

    const moved = address('DE', { streetName: 'Ringstraße' });
    const both = await staged(order, [{ action: 'setShippingAddressAndCustomShippingMethod', address: moved, ...courier, shippingRate: { price: eur(590) } }]);
    expect(typesOf(both.result.messagePayloads)).toEqual(['OrderShippingAddressSet', 'OrderShippingInfoSet']);
    const edited = await applied(order, both);
    expect(edited).toMatchObject({
      version: order.version + 1,
      shippingAddress: { streetName: 'Ringstraße' },
      shippingInfo: { shippingMethodName: 'Courier', price: money(590), deliveries: [] },
    });
    expect(edited.shippingInfo).not.toHaveProperty('shippingMethod');
    expectTotals(edited, [1800, 300, 590]);
  });

  it('addDiscountCode and removeDiscountCode, with the discount recalculation messages', async () => {
    const tenth = await admin.ok(
      `/${P}/cart-discounts`,
      {
        name: { en: 'Shirts -10 %' },
        sortOrder: '0.71',
        isActive: true,
        cartPredicate: '1 = 1',
        requiresDiscountCode: true,
        value: { type: 'relative', permyriad: 1000 },
        target: { type: 'lineItems', predicate: 'sku = "shirt-m"' },
      },
      201,
    );
    const code = await admin.ok(`/${P}/discount-codes`, { code: 'SHIRTS10', cartDiscounts: [{ typeId: 'cart-discount', id: tenth.id }] }, 201);
    const order = await pricedOrder();
    const edit = await staged(order, [{ action: 'addDiscountCode', code: 'SHIRTS10' }]);
    const { preview, messagePayloads } = edit.result;
    // 10 % off 2 × 9.00: the shirts pay 16.20.
    expectTotals(preview, [1620, 300, 490]);
    expect(messagePayloads).toMatchObject([
      { type: 'OrderDiscountCodeAdded', discountCode: { typeId: 'discount-code', id: code.id } },
      { type: 'OrderLineItemDiscountSet', lineItemKey: 'shirts', totalPrice: money(1620), discountedPricePerQuantity: [{ quantity: 2 }] },
    ]);
    const edited = await applied(order, edit);
    expect(edited.discountCodes).toEqual([{ discountCode: { typeId: 'discount-code', id: code.id }, state: 'MatchesCart' }]);
    expectTotals(edited, [1620, 300, 490]);

    const removal = await staged(edited, [{ action: 'removeDiscountCode', discountCode: { typeId: 'discount-code', id: code.id } }]);
    expect(removal.result.messagePayloads).toMatchObject([
      { type: 'OrderDiscountCodeRemoved', discountCode: { typeId: 'discount-code', id: code.id } },
      { type: 'OrderLineItemDiscountSet', lineItemKey: 'shirts', totalPrice: money(1800), discountedPricePerQuantity: [] },
    ]);
    expectTotals(await applied(edited, removal), [1800, 300, 490]);
  });

  it('setDirectDiscounts and addShoppingList', async () => {
    const order = await pricedOrder();
    const direct = { value: { type: 'relative', permyriad: 2000 }, target: { type: 'lineItems', predicate: 'sku = "shirt-m"' } };
    const discounted = await staged(order, [{ action: 'setDirectDiscounts', discounts: [direct] }]);
    const { preview, messagePayloads } = discounted.result;
    // 20 % off 2 × 9.00: the shirts pay 14.40.
    expectTotals(preview, [1440, 300, 490]);
    expect(preview.directDiscounts).toMatchObject([{ id: expect.any(String), ...direct }]);
    expect(messagePayloads).toMatchObject([{ type: 'OrderLineItemDiscountSet', lineItemKey: 'shirts', totalPrice: money(1440) }]);

    const list = await admin.ok(`/${P}/shopping-lists`, { name: { en: 'Wishes' }, lineItems: [{ sku: 'mug-1', quantity: 2 }, { sku: 'shirt-m' }] }, 201);
    const listed = await staged(order, [
      { action: 'setDirectDiscounts', discounts: [direct] },
      { action: 'addShoppingList', shoppingList: { typeId: 'shopping-list', id: list.id } },
    ]);
    // The list's shirt has no key, the order's has one: it is a line item of its own (carts/line-items.ts mergeLineItem).
    expect(listed.result.preview.lineItems.map((item: Json) => [item.variant.sku, item.quantity])).toEqual([
      ['shirt-m', 2],
      ['mug-1', 2],
      ['shirt-m', 1],
    ]);
    expect(listed.result.messagePayloads).toMatchObject([{ type: 'OrderLineItemDiscountSet', lineItemKey: 'shirts' }]);
    const edited = await applied(order, listed);
    // The shirts 20 % off (14.40 and 7.20), 2 mugs at 5.00, the wrap, the shipping (below freeAbove).
    expectTotals(edited, [1440, 720, 1000, 300, 490]);
    const inInitial = (quantity: number) => [{ quantity, state: { typeId: 'state', id: initial.id } }];
    expect(edited.lineItems.map((item: Json) => item.state)).toEqual([inInitial(2), inInitial(2), inInitial(1)]);
  });

  it('bad staged input: a 400 when staged, a PreviewFailure with the official code when the order refuses it, and apply fails writing nothing', async () => {
    const order = await pricedOrder();
    const cases: Array<[Json, string]> = [
      [{ action: 'addLineItem', sku: 'no-such-sku' }, 'InvalidInput'],
      [{ action: 'changeLineItemQuantity', lineItemKey: 'shirts' }, 'InvalidInput'],
      [{ action: 'removeLineItem', lineItemId: 'no-such-item' }, 'InvalidInput'],
      [{ action: 'setLineItemTaxRate', lineItemKey: 'shirts', externalTaxRate: { name: 'x', amount: 0.1, country: 'DE' } }, 'InvalidOperation'],
      [{ action: 'changeTaxMode', taxMode: 'Sometimes' }, 'InvalidInput'],
      [{ action: 'setShippingAddressAndShippingMethod', shippingMethod: standardMethod }, 'RequiredField'],
      // Plain US: the standard category has a US rate for New York only; in New York, the method has no EUR rate.
      [{ action: 'setShippingAddressAndShippingMethod', address: address('US'), shippingMethod: standardMethod }, 'MissingTaxRateForCountry'],
      [
        { action: 'setShippingAddressAndShippingMethod', address: { ...address('US'), state: 'New York' }, shippingMethod: standardMethod },
        'ShippingMethodDoesNotMatchCart',
      ],
      [{ action: 'addDiscountCode', code: 'NO-SUCH-CODE' }, 'DiscountCodeNonApplicable'],
      [{ action: 'setCustomerGroup', customerGroup: { typeId: 'customer-group', key: 'no-such-group' } }, 'ReferencedResourceNotFound'],
    ];
    for (const [action, code] of cases) {
      const edit = await staged(order, [action]);
      expect({ action, result: edit.result.type, code: edit.result.errors?.[0]?.code }).toEqual({ action, result: 'PreviewFailure', code });
      const failing = await admin.post(`/${P}/order-edits/${edit.id}/apply`, { editVersion: edit.version, resourceVersion: order.version });
      expect({ action, status: failing.status, code: failing.body.errors?.[0]?.code }).toEqual({ action, status: 400, code });
    }
    expect((await admin.read(`/${P}/orders/${order.id}`)).version).toBe(order.version);
  });

  it('an order with deliveries keeps them under a new shipping method; removing the method is refused', async () => {
    const order = await pricedOrder();
    const delivered = await admin.update(`/${P}/orders/${order.id}`, order.version, [
      { action: 'addDelivery', items: [{ id: order.lineItems[0].id, quantity: 1 }] },
    ]);
    const refused = await staged(delivered, [{ action: 'setShippingMethod' }]);
    expect(refused.result).toMatchObject({ type: 'PreviewFailure', errors: [{ code: 'InvalidOperation' }] });
    const kept = await staged(delivered, [{ action: 'addLineItem', sku: 'shirt-l' }]);
    expect(kept.result.preview.shippingInfo.deliveries).toEqual(delivered.shippingInfo.deliveries);
    expect((await applied(delivered, kept)).shippingInfo.deliveries).toHaveLength(1);
  });

  it('no order ResourceUpdated notification reaches an SQS subscription for an applied edit; its messages and OrderEditApplied do', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'order');
    const order = await pricedOrder();
    const edit = await staged(order, [
      { action: 'addLineItem', sku: 'mug-1', key: 'mug' },
      { action: 'setShippingMethod', shippingMethod: standardMethod },
    ]);
    await applied(order, edit);
    // A direct update afterwards: its change notification does arrive.
    await admin.update(`/${P}/orders/${order.id}`, order.version + 1, [{ action: 'setPurchaseOrderNumber', purchaseOrderNumber: 'PO-9' }]);
    const id = order.id as string;
    const deliveries = await deliveriesAbout(sqs, queue, id, 7);
    expect(labels(deliveries)).toEqual(
      [
        `order:${id}:Message:OrderCreated:1`,
        `order:${id}:ResourceCreated:1`,
        `order:${id}:Message:OrderLineItemAdded:2`,
        `order:${id}:Message:OrderShippingInfoSet:3`,
        `order:${id}:Message:OrderEditApplied:4`,
        `order:${id}:Message:OrderPurchaseOrderNumberSet:5`,
        `order:${id}:ResourceUpdated:3`,
      ].sort(),
    );
  });
});
