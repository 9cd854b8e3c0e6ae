import { randomUUID } from 'node:crypto';
import type {
  ApiRequest,
  ByProjectKeyRequestBuilder,
  CentPrecisionMoney,
  Customer,
  CustomerGroup,
  LineItem,
  Order,
  Product,
  Quote,
  QuoteRequest,
  StagedQuote,
  TaxedPrice,
} from '@commercetools/platform-sdk';
import { startSqsPeer, type SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller } from '../carts/commerce.js';
import { startTestGateway, TEST_BOOTSTRAP_CLIENT, type TestGateway } from '../support/gateway.js';
import { deliveriesAbout, labels, REGION, subscribedQueue } from '../subscriptions/support.js';
import { apiRoot, baseBuilder, type SdkTarget } from './support.js';

/**
 * Issue 28, "Done when": the storefront scenario through the official TypeScript SDK. A merchant
 * (client credentials, manage_project) builds the catalogue — product type, tax category, zones,
 * customer group, shipping method, a product with EUR and USD prices and a customer-group price —
 * and publishes it; a customer of that group logs in (password flow) and buys through `/me`: carts
 * by SKU, shipping address and method, a quote request the merchant answers with a staged quote
 * and a quote, and the order from that quote. Every amount is computed here from the reference's
 * documented rules (TaxCalculationMode LineItemLevel, RoundingMode HalfEven, both the defaults),
 * never read back from Herald.
 */

const P = 'storefront';
const SETUP_MS = 180_000;

/** The tax rates of the scenario as exact fractions, so the expected amounts need no float rounding. */
const DE_VAT = { name: 'DE VAT', amount: 0.19, numerator: 19, denominator: 100 } as const;
const US_SALES_TAX = { name: 'US sales tax', amount: 0.065, numerator: 65, denominator: 1000 } as const;
type Rate = typeof DE_VAT | typeof US_SALES_TAX;

/** RoundingMode HalfEven (types/cart/RoundingMode.raml, the default of a new cart) of the fraction p / q, both integers. */
function roundHalfEven(p: number, q: number): number {
  const floor = Math.floor(p / q);
  const twiceRemainder = 2 * (p - floor * q);
  if (twiceRemainder !== q) return twiceRemainder > q ? floor + 1 : floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** The tax of a line's total (LineItemLevel): on the net when added, out of the gross when included in the price. */
function taxOf(centAmount: number, rate: Rate, includedInPrice: boolean): { net: number; gross: number; tax: number } {
  if (includedInPrice) {
    const net = roundHalfEven(centAmount * rate.denominator, rate.denominator + rate.numerator);
    return { net, gross: centAmount, tax: centAmount - net };
  }
  const tax = roundHalfEven(centAmount * rate.numerator, rate.denominator);
  return { net: centAmount, gross: centAmount + tax, tax };
}

const money = (currencyCode: string, centAmount: number): CentPrecisionMoney => ({ type: 'centPrecision', currencyCode, centAmount, fractionDigits: 2 });

/** A TaxedPrice (or TaxedItemPrice) of one rate over the given lines, as the reference sums them. */
function taxedOver(currency: string, rate: Rate, lines: readonly { net: number; gross: number; tax: number }[]): TaxedPrice {
  const sum = (pick: (line: { net: number; gross: number; tax: number }) => number) => lines.reduce((total, line) => total + pick(line), 0);
  return {
    totalNet: money(
      currency,
      sum((line) => line.net),
    ),
    totalGross: money(
      currency,
      sum((line) => line.gross),
    ),
    totalTax: money(
      currency,
      sum((line) => line.tax),
    ),
    taxPortions: [
      {
        name: rate.name,
        rate: rate.amount,
        amount: money(
          currency,
          sum((line) => line.tax),
        ),
      },
    ],
  };
}

/** Executes an SDK request that must succeed with `status`; returns the typed body. */
async function body<T>(request: ApiRequest<T>, status = 200): Promise<T> {
  const response = await request.execute();
  expect(response.statusCode, JSON.stringify(response.body)).toBe(status);
  return response.body as T;
}

describe('the storefront scenario through the official TypeScript SDK (issue 28)', { timeout: 120_000 }, () => {
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let target: SdkTarget;
  /** The merchant's back office: an API client with manage_project (client credentials flow). */
  let merchant: ByProjectKeyRequestBuilder;
  /** The same API client for the subscription helpers, through HTTP inject. */
  let subscriber: Caller;

  beforeAll(async () => {
    sqs = await startSqsPeer({ region: REGION });
    gateway = await startTestGateway({
      projects: [P],
      delivery: { environment: { endpoints: { sqs: sqs.endpoint }, timeouts: { sendMs: 10_000 } } },
    });
    // The SDK talks to Herald over a real loopback socket, as an application would.
    const url = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
    target = { url, projectKey: P };
    merchant = apiRoot(
      baseBuilder(target)
        .withClientCredentialsFlow({
          host: url,
          projectKey: P,
          credentials: { clientId: TEST_BOOTSTRAP_CLIENT.id, clientSecret: TEST_BOOTSTRAP_CLIENT.secret },
          scopes: [`manage_project:${P}`],
          httpClient: fetch,
        })
        .build(),
      target,
    );
    subscriber = await callerWith(gateway, P, ['manage_subscriptions']);
  }, SETUP_MS);
  afterAll(async () => {
    await gateway?.close();
    await sqs?.stop();
  });

  /** The customer's own client: the password flow with the storefront's customer scopes. */
  function loggedIn(email: string, password: string): ByProjectKeyRequestBuilder {
    const client = baseBuilder(target)
      .withPasswordFlow({
        host: target.url,
        projectKey: P,
        credentials: { clientId: TEST_BOOTSTRAP_CLIENT.id, clientSecret: TEST_BOOTSTRAP_CLIENT.secret, user: { username: email, password } },
        scopes: ['manage_my_profile', 'manage_my_orders', 'manage_my_quote_requests', 'manage_my_quotes'].map((scope) => `${scope}:${P}`),
        httpClient: fetch,
      })
      .build();
    return apiRoot(client, target);
  }

  async function buildCatalogue(): Promise<{ gold: CustomerGroup; product: Product }> {
    await body(
      merchant.productTypes().post({
        body: {
          key: 'apparel',
          name: 'Apparel',
          description: 'Clothes',
          attributes: [
            {
              name: 'size',
              label: { en: 'Size' },
              isRequired: true,
              type: { name: 'enum', values: [{ key: 'M', label: 'Medium' }] },
            },
          ],
        },
      }),
      201,
    );
    await body(
      merchant.taxCategories().post({
        body: {
          key: 'standard',
          name: 'Standard',
          rates: [
            { name: DE_VAT.name, amount: DE_VAT.amount, includedInPrice: true, country: 'DE' },
            { name: US_SALES_TAX.name, amount: US_SALES_TAX.amount, includedInPrice: false, country: 'US' },
          ],
        },
      }),
      201,
    );
    await body(merchant.zones().post({ body: { key: 'germany', name: 'Germany', locations: [{ country: 'DE' }] } }), 201);
    await body(merchant.zones().post({ body: { key: 'usa', name: 'USA', locations: [{ country: 'US' }] } }), 201);
    const gold = await body(merchant.customerGroups().post({ body: { key: 'gold', groupName: 'Gold' } }), 201);
    await body(
      merchant.shippingMethods().post({
        body: {
          key: 'standard',
          name: 'Standard',
          taxCategory: { typeId: 'tax-category', key: 'standard' },
          isDefault: false,
          zoneRates: [
            {
              zone: { typeId: 'zone', key: 'germany' },
              shippingRates: [{ price: { currencyCode: 'EUR', centAmount: 590 }, freeAbove: { currencyCode: 'EUR', centAmount: 10000 } }],
            },
            { zone: { typeId: 'zone', key: 'usa' }, shippingRates: [{ price: { currencyCode: 'USD', centAmount: 800 } }] },
          ],
        },
      }),
      201,
    );
    const product = await body(
      merchant.products().post({
        body: {
          key: 'tee',
          productType: { typeId: 'product-type', key: 'apparel' },
          taxCategory: { typeId: 'tax-category', key: 'standard' },
          name: { en: 'Tee' },
          slug: { en: 'tee' },
          masterVariant: {
            sku: 'tee-m',
            attributes: [{ name: 'size', value: 'M' }],
            prices: [
              { value: { currencyCode: 'EUR', centAmount: 2500 } },
              { value: { currencyCode: 'EUR', centAmount: 2400 }, country: 'DE' },
              { value: { currencyCode: 'EUR', centAmount: 2200 }, customerGroup: { typeId: 'customer-group', id: gold.id } },
              { value: { currencyCode: 'USD', centAmount: 2900 } },
              { value: { currencyCode: 'USD', centAmount: 2100 }, country: 'US' },
            ],
          },
        },
      }),
      201,
    );
    expect(product.masterData.published).toBe(false);
    return { gold, product };
  }

  /** The merchant signs the customer up and puts them in the group; the customer then logs in. */
  async function goldCustomer(gold: CustomerGroup): Promise<{ customer: Customer; shop: ByProjectKeyRequestBuilder }> {
    const email = `gold-${randomUUID()}@example.com`;
    const password = `pw-${randomUUID()}`;
    const signedUp = await body(merchant.customers().post({ body: { email, password, firstName: 'Gerda', lastName: 'Gold' } }), 201);
    const customer = await body(
      merchant
        .customers()
        .withId({ ID: signedUp.customer.id })
        .post({
          body: { version: signedUp.customer.version, actions: [{ action: 'setCustomerGroup', customerGroup: { typeId: 'customer-group', key: gold.key } }] },
        }),
    );
    expect(customer.customerGroup).toEqual({ typeId: 'customer-group', id: gold.id });
    return { customer, shop: loggedIn(email, password) };
  }

  function expectPricedLine(item: LineItem | undefined, currency: string, unit: number, quantity: number, taxed: TaxedPrice): void {
    expect(item).toMatchObject({
      variant: { sku: 'tee-m' },
      quantity,
      priceMode: 'Platform',
      price: { value: money(currency, unit) },
      totalPrice: money(currency, unit * quantity),
      taxedPrice: { totalNet: taxed.totalNet, totalGross: taxed.totalGross, totalTax: taxed.totalTax },
    });
  }

  it('catalogue → publish → carts by SKU for a gold customer → shipping → taxes → quote → order, with deliveries', async () => {
    const queues = {
      product: await subscribedQueue(sqs, subscriber, P, 'product'),
      cart: await subscribedQueue(sqs, subscriber, P, 'cart'),
      order: await subscribedQueue(sqs, subscriber, P, 'order'),
    };
    const { gold, product } = await buildCatalogue();
    const published = await body(
      merchant
        .products()
        .withId({ ID: product.id })
        .post({ body: { version: product.version, actions: [{ action: 'publish' }] } }),
    );
    expect(published.masterData).toMatchObject({ published: true, hasStagedChanges: false, current: { masterVariant: { sku: 'tee-m' } } });

    const { customer, shop } = await goldCustomer(gold);
    expect(await body(shop.me().get())).toMatchObject({ id: customer.id, customerGroup: { id: gold.id } });

    // A cart by SKU in Germany, in euros: the group's price (the customer's group outranks the country's price).
    const created = await body(
      shop
        .me()
        .carts()
        .post({ body: { currency: 'EUR', country: 'DE', lineItems: [{ sku: 'tee-m', quantity: 3 }] } }),
      201,
    );
    expect(created).toMatchObject({ customerId: customer.id, customerGroup: { typeId: 'customer-group', id: gold.id }, country: 'DE', cartState: 'Active' });
    expect(created.lineItems[0]).toMatchObject({
      productId: product.id,
      name: { en: 'Tee' },
      price: { value: money('EUR', 2200), customerGroup: { id: gold.id } },
    });

    const euroCart = await body(
      shop
        .me()
        .carts()
        .withId({ ID: created.id })
        .post({
          body: {
            version: created.version,
            actions: [
              {
                action: 'setShippingAddress',
                address: { country: 'DE', firstName: 'Gerda', lastName: 'Gold', streetName: 'Hauptstraße', city: 'Berlin', postalCode: '10115' },
              },
              { action: 'setShippingMethod', shippingMethod: { typeId: 'shipping-method', key: 'standard' } },
            ],
          },
        }),
    );
    // 3 × 22.00 = 66.00 gross, 19 % included; shipping 5.90 gross (below freeAbove 100.00), 19 % included.
    const euroLine = taxOf(3 * 2200, DE_VAT, true);
    const euroShipping = taxOf(590, DE_VAT, true);
    const euroTaxed = taxedOver('EUR', DE_VAT, [euroLine, euroShipping]);
    expectPricedLine(euroCart.lineItems[0], 'EUR', 2200, 3, taxedOver('EUR', DE_VAT, [euroLine]));
    expect(euroCart.lineItems[0]?.taxRate).toMatchObject({ name: DE_VAT.name, amount: DE_VAT.amount, includedInPrice: true, country: 'DE' });
    const euroShippingInfo = {
      shippingMethodName: 'Standard',
      price: money('EUR', 590),
      taxRate: { amount: DE_VAT.amount, includedInPrice: true },
      taxedPrice: { totalNet: money('EUR', euroShipping.net), totalGross: money('EUR', 590), totalTax: money('EUR', euroShipping.tax) },
    };
    expect(euroCart.shippingInfo).toMatchObject(euroShippingInfo);
    expect(euroCart.totalPrice).toEqual(money('EUR', 6600 + 590));
    expect(euroCart.taxedPrice).toEqual(euroTaxed);

    // A second cart in dollars in the US: no group price in USD, so the US price; tax added, rounded half to even.
    const dollarCart = await body(
      shop
        .me()
        .carts()
        .post({
          body: {
            currency: 'USD',
            country: 'US',
            lineItems: [{ sku: 'tee-m', quantity: 1 }],
            shippingAddress: { country: 'US', state: 'Texas', city: 'Austin' },
            shippingMethod: { typeId: 'shipping-method', key: 'standard' },
          },
        }),
      201,
    );
    // 21.00 × 6.5 % = 1.365 → 1.36 (HalfEven; HalfUp would be 1.37); shipping 8.00 × 6.5 % = 0.52.
    const dollarLine = taxOf(2100, US_SALES_TAX, false);
    const dollarShipping = taxOf(800, US_SALES_TAX, false);
    expect(dollarLine.tax).toBe(136);
    expectPricedLine(dollarCart.lineItems[0], 'USD', 2100, 1, taxedOver('USD', US_SALES_TAX, [dollarLine]));
    expect(dollarCart.shippingInfo).toMatchObject({ price: money('USD', 800), taxedPrice: { totalGross: money('USD', 852) } });
    expect(dollarCart.totalPrice).toEqual(money('USD', 2100 + 800));
    expect(dollarCart.taxedPrice).toEqual(taxedOver('USD', US_SALES_TAX, [dollarLine, dollarShipping]));

    const cartDeliveries = await deliveriesAbout(sqs, queues.cart, euroCart.id, 2);
    expect(labels(cartDeliveries)).toEqual([`cart:${euroCart.id}:ResourceCreated:1`, `cart:${euroCart.id}:ResourceUpdated:2`]);

    // The buyer asks for a quote; the merchant accepts the request, stages and sends a quote; the buyer orders it.
    const quoteRequest: QuoteRequest = await body(
      shop
        .me()
        .quoteRequests()
        .post({ body: { cartId: euroCart.id, cartVersion: euroCart.version, comment: 'Three for the team?' } }),
      201,
    );
    expect(quoteRequest).toMatchObject({
      quoteRequestState: 'Submitted',
      customer: { id: customer.id },
      customerGroup: { id: gold.id },
      totalPrice: euroCart.totalPrice,
      taxedPrice: euroTaxed,
      shippingInfo: euroShippingInfo,
    });
    expectPricedLine(quoteRequest.lineItems[0], 'EUR', 2200, 3, taxedOver('EUR', DE_VAT, [euroLine]));

    const staged: StagedQuote = await body(
      merchant.stagedQuotes().post({
        body: { quoteRequest: { typeId: 'quote-request', id: quoteRequest.id }, quoteRequestVersion: quoteRequest.version, quoteRequestStateToAccepted: true },
      }),
      201,
    );
    expect(staged).toMatchObject({ stagedQuoteState: 'InProgress', customer: { id: customer.id } });
    // The offer's cart (StagedQuote.quotationCart) holds the same priced items and taxes.
    const quotationCart = await body(merchant.carts().withId({ ID: staged.quotationCart.id }).get());
    expect(quotationCart).toMatchObject({
      customerGroup: { id: gold.id },
      totalPrice: euroCart.totalPrice,
      taxedPrice: euroTaxed,
      shippingInfo: euroShippingInfo,
    });
    const quote: Quote = await body(
      merchant.quotes().post({
        body: { stagedQuote: { typeId: 'staged-quote', id: staged.id }, stagedQuoteVersion: staged.version, stagedQuoteStateToSent: true },
      }),
      201,
    );
    expect(quote).toMatchObject({
      quoteState: 'Pending',
      customer: { id: customer.id },
      customerGroup: { id: gold.id },
      totalPrice: euroCart.totalPrice,
      taxedPrice: euroTaxed,
      shippingInfo: euroShippingInfo,
    });
    expectPricedLine(quote.lineItems[0], 'EUR', 2200, 3, taxedOver('EUR', DE_VAT, [euroLine]));

    // The buyer orders the Pending quote and accepts it in the same request (MyOrderFromQuoteDraft.quoteStateToAccepted).
    const order: Order = await body(
      shop
        .me()
        .orders()
        .orderQuote()
        .post({ body: { id: quote.id, version: quote.version, quoteStateToAccepted: true } }),
      201,
    );
    expect((await body(shop.me().quotes().withId({ ID: quote.id }).get())).quoteState).toBe('Accepted');
    expect(order).toMatchObject({
      origin: 'Quote',
      quote: { id: quote.id },
      customerId: customer.id,
      customerGroup: { id: gold.id },
      shippingInfo: { ...euroShippingInfo, deliveries: [] },
      totalPrice: money('EUR', 6600 + 590),
      taxedPrice: euroTaxed,
    });
    expectPricedLine(order.lineItems[0], 'EUR', 2200, 3, taxedOver('EUR', DE_VAT, [euroLine]));
    expect(await body(shop.me().orders().withId({ ID: order.id }).get())).toMatchObject({ id: order.id, taxedPrice: euroTaxed });

    // The dollar cart is ordered as it is (MyOrderFromCartDraft): the order keeps its shipping, group and taxes.
    const dollarOrder: Order = await body(
      shop
        .me()
        .orders()
        .post({ body: { id: dollarCart.id, version: dollarCart.version } }),
      201,
    );
    expect(dollarOrder).toMatchObject({
      origin: 'Customer',
      cart: { id: dollarCart.id },
      customerId: customer.id,
      customerGroup: { id: gold.id },
      totalPrice: money('USD', 2900),
      taxedPrice: dollarCart.taxedPrice,
      shippingInfo: { price: money('USD', 800), taxedPrice: { totalGross: money('USD', 852) } },
    });
    expectPricedLine(dollarOrder.lineItems[0], 'USD', 2100, 1, taxedOver('USD', US_SALES_TAX, [dollarLine]));

    // Change notifications (and messages) of the product and the order reached the subscription.
    const productDeliveries = await deliveriesAbout(sqs, queues.product, product.id, 4);
    expect(labels(productDeliveries)).toEqual(
      [
        `product:${product.id}:ResourceCreated:1`,
        `product:${product.id}:ResourceUpdated:2`,
        `product:${product.id}:Message:ProductCreated:1`,
        `product:${product.id}:Message:ProductPublished:2`,
      ].sort(),
    );
    const orderDeliveries = await deliveriesAbout(sqs, queues.order, order.id, 2);
    expect(labels(orderDeliveries)).toEqual([`order:${order.id}:Message:OrderCreated:1`, `order:${order.id}:ResourceCreated:1`]);
  });
});
