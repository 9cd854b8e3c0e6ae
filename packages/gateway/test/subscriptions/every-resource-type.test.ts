/**
 * Issue 29 ("Done when"): a change subscription to every resource type of the spec's
 * ChangeSubscription list (§2.4) fires. One row per type creates a minimal instance through HTTP
 * (with the prerequisites it needs), updates it with one real update action and deletes it, each
 * type through its own subscription (messages and changes) to an SQS queue on fauxqs; the row then
 * asserts ResourceCreated, ResourceUpdated and ResourceDeleted with the type id, the resource's id
 * and its versions (§4.2's payloads), and the messages the three steps record. Where the reference
 * has no update or no delete for a type, the row says what the type has instead (docs/compatibility.md,
 * "Change subscriptions: every resource type", is this table in prose).
 */
import { randomUUID } from 'node:crypto';
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { address, customerWithToken, lineItem, type Caller, type Customer, type Json } from '../carts/commerce.js';
import type { TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, payloadOf, sqsDestination, subscribedQueue } from './support.js';

const P = 'every-type';
const EUR = (centAmount: number) => ({ currencyCode: 'EUR', centAmount });

/** What a row's steps need: the project's admin, a customer, fauxqs (for subscriptions as a resource). */
interface World {
  admin: Caller;
  customer: Customer;
  sqs: SqsPeer;
}

/** The resource after a step: its id and the version the step's notification carries. */
interface Step {
  id: string;
  version: number;
}

interface Row {
  typeId: string;
  /** How the row creates, updates and deletes one (the test's name, and docs/compatibility.md's table). */
  how: string;
  create(world: World): Promise<Json>;
  /** Undefined where the reference has no update for the type (the row has no ResourceUpdated). */
  update?(world: World, created: Step): Promise<Step>;
  /** Returns the version the resource had when it was deleted. */
  remove(world: World, current: Step): Promise<number>;
  /** The message types the three steps record, in order (the reference's messages of the type). */
  messages: string[];
  /** What else the row's steps must have caused, checked after its own deliveries. */
  verify?(world: World, created: Step): Promise<void>;
}

let counter = 0;
/** A key no other row uses (keys are unique per type and project). */
const unique = (prefix: string) => `${prefix}-${(counter += 1)}-${randomUUID().slice(0, 6)}`;

const stepOf = (body: Json): Step => ({ id: body.id as string, version: body.version as number });

/** Updates a resource of the versioned template: POST {version, actions} by id. */
async function updated(world: World, collection: string, current: Step, actions: Json[]): Promise<Step> {
  return stepOf(await world.admin.update(`/${P}/${collection}/${current.id}`, current.version, actions));
}

/** Deletes a resource of the versioned template (DELETE ?version) and returns its version then. */
async function deleted(world: World, path: string, version: number): Promise<number> {
  const answer = await world.admin.request('DELETE', `/${P}/${path}?version=${version}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.version as number;
}

/** A resource of the versioned template: POST a draft to create, one update action, DELETE. */
function versioned(typeId: string, collection: string, draft: (world: World) => Json | Promise<Json>, action: Json, messages: string[] = []): Row {
  return {
    typeId,
    how: `POST /${collection}, ${action.action as string}, DELETE /${collection}/{id}`,
    messages,
    create: async (world) => world.admin.ok(`/${P}/${collection}`, await draft(world), 201),
    update: (world, created) => updated(world, collection, created, [action]),
    remove: (world, current) => deleted(world, `${collection}/${current.id}`, current.version),
  };
}

// Prerequisites, made through HTTP like the rows themselves.
const productType = (world: World) => world.admin.ok(`/${P}/product-types`, { key: unique('pt'), name: unique('Product type'), description: 'For a row' }, 201);

/** sortOrder is unique among a project's cart discounts (CartDiscountDraft.sortOrder). */
const cartDiscountDraft = (): Json => ({
  key: unique('cd'),
  name: { en: 'Cart discount' },
  value: { type: 'relative', permyriad: 1000 },
  cartPredicate: '1 = 1',
  target: { type: 'shipping' },
  sortOrder: `0.${(counter += 1)}1`,
  requiresDiscountCode: true,
});

/** A cart of the world's customer, ready to become an order or a quote request. */
const customerCart = (world: World) =>
  world.admin.ok(
    `/${P}/carts`,
    { currency: 'EUR', country: 'DE', customerId: world.customer.id, lineItems: [lineItem(unique('SKU'), 1000)], shippingAddress: address('DE') },
    201,
  );

const orderDraft = async (world: World): Promise<Json> => {
  const cart = await customerCart(world);
  return { cart: { id: cart.id, typeId: 'cart' }, version: cart.version };
};

const quoteRequestDraft = async (world: World): Promise<Json> => {
  const cart = await customerCart(world);
  return { cart: { id: cart.id }, cartVersion: cart.version };
};

const stagedQuoteDraft = async (world: World): Promise<Json> => {
  const request = await world.admin.ok(`/${P}/quote-requests`, await quoteRequestDraft(world), 201);
  return { quoteRequest: { id: request.id }, quoteRequestVersion: request.version, quoteRequestStateToAccepted: true };
};

const quoteDraft = async (world: World): Promise<Json> => {
  const staged = await world.admin.ok(`/${P}/staged-quotes`, await stagedQuoteDraft(world), 201);
  return { stagedQuote: { id: staged.id }, stagedQuoteVersion: staged.version, stagedQuoteStateToSent: true };
};

/** The token values by token id: a token is used by its value, which only its creation answers. */
const tokenValues = new Map<string, string>();

/**
 * customer-email-token / customer-password-token (resources/customers.raml): no update and no
 * DELETE; a token is created, then used once (`/customers/email/confirm`, `/customers/password/reset`),
 * which deletes it: ResourceCreated, then ResourceDeleted at version 1.
 */
const customerToken = (kind: 'email' | 'password'): Row => ({
  typeId: `customer-${kind}-token`,
  how: `POST /customers/${kind}-token, no update, ${kind === 'email' ? 'POST /customers/email/confirm' : 'POST /customers/password/reset'} deletes it`,
  messages: [kind === 'email' ? 'CustomerEmailTokenCreated' : 'CustomerPasswordTokenCreated'],
  async create(world) {
    const { customer } = await world.admin.ok(`/${P}/customers`, { email: `${unique('token')}@example.com`, password: 'old password' }, 201);
    const draft = kind === 'email' ? { id: customer.id, ttlMinutes: 30 } : { email: customer.email };
    const token = await world.admin.ok(`/${P}/customers/${kind}-token`, draft);
    tokenValues.set(token.id as string, token.value as string);
    // CustomerToken has no version field (types/customer/CustomerToken.raml): its notifications carry 1.
    return { ...token, version: 1 };
  },
  async remove(world, current) {
    const tokenValue = tokenValues.get(current.id);
    if (kind === 'email') await world.admin.ok(`/${P}/customers/email/confirm`, { tokenValue });
    else await world.admin.ok(`/${P}/customers/password/reset`, { tokenValue, newPassword: 'new password' });
    return current.version;
  },
});

/** key-value-document: `/custom-objects`, created and updated by POSTing {container, key, value}, deleted by both. */
const CONTAINER = 'every-type';
const objectKeys = new Map<string, string>();
const keyValueDocument: Row = {
  typeId: 'key-value-document',
  how: 'POST /custom-objects, POST /custom-objects with version, DELETE /custom-objects/{container}/{key}',
  messages: [],
  async create(world) {
    const object = await world.admin.ok(`/${P}/custom-objects`, { container: CONTAINER, key: unique('object'), value: { step: 1 } }, 201);
    objectKeys.set(object.id as string, object.key as string);
    return object;
  },
  update: async (world, created) =>
    stepOf(
      await world.admin.ok(`/${P}/custom-objects`, { container: CONTAINER, key: objectKeys.get(created.id), value: { step: 2 }, version: created.version }),
    ),
  remove: (world, current) => deleted(world, `custom-objects/${CONTAINER}/${objectKeys.get(current.id)}`, current.version),
};

/** The order each order edit changes, and a queue subscribed to that order's events before it existed. */
const editedOrders = new Map<string, { id: string; version: number; queue: string }>();

/**
 * order-edit: its update is `/order-edits/{id}/apply` (the edit's version moves on, its result
 * becomes Applied). §2.4: the order it changes gets no change notification for that, only the
 * messages (the staged action's and OrderEditApplied).
 */
const orderEdit: Row = {
  typeId: 'order-edit',
  how: 'POST /order-edits, POST /order-edits/{id}/apply, DELETE /order-edits/{id}',
  messages: [],
  async create(world) {
    const queue = await subscribedQueue(world.sqs, world.admin, P, 'order');
    const order = await world.admin.ok(`/${P}/orders`, await orderDraft(world), 201);
    const stagedActions = [{ action: 'setCustomerEmail', email: 'edited@example.com' }];
    const edit = await world.admin.ok(`/${P}/order-edits`, { resource: { id: order.id }, stagedActions }, 201);
    editedOrders.set(edit.id as string, { id: order.id as string, version: order.version as number, queue });
    return edit;
  },
  async update(world, created) {
    const order = editedOrders.get(created.id);
    await world.admin.ok(`/${P}/order-edits/${created.id}/apply`, { editVersion: created.version, resourceVersion: order?.version });
    return stepOf(await world.admin.read(`/${P}/order-edits/${created.id}`));
  },
  remove: (world, current) => deleted(world, `order-edits/${current.id}`, current.version),
  async verify(world, created) {
    const order = editedOrders.get(created.id) as { id: string; queue: string };
    const payloads = (await deliveriesAbout(world.sqs, order.queue, order.id, 4)).map(payloadOf);
    expect(payloads.map((payload) => payload.type ?? payload.notificationType).sort()).toEqual(
      ['OrderCreated', 'OrderCustomerEmailSet', 'OrderEditApplied', 'ResourceCreated'].sort(),
    );
  },
};

/** subscription: another subscription (its own queue) is the resource the row watches. */
const subscription: Row = {
  typeId: 'subscription',
  how: 'POST /subscriptions, setKey, DELETE /subscriptions/{id}',
  messages: [],
  create: (world) =>
    world.admin.ok(`/${P}/subscriptions`, { destination: sqsDestination(world.sqs.createQueue(unique('other'))), changes: [{ resourceTypeId: 'zone' }] }, 201),
  update: (world, created) => updated(world, 'subscriptions', created, [{ action: 'setKey', key: unique('subscription') }]),
  remove: (world, current) => deleted(world, `subscriptions/${current.id}`, current.version),
};

/** customer: `POST /customers` answers the sign-up result, `{customer}`. */
const customer: Row = {
  ...versioned('customer', 'customers', () => ({}), { action: 'setFirstName', firstName: 'Renamed' }, [
    'CustomerCreated',
    'CustomerFirstNameSet',
    'CustomerDeleted',
  ]),
  create: async (world) => (await world.admin.ok(`/${P}/customers`, { email: `${unique('customer')}@example.com`, password: 'secret' }, 201)).customer as Json,
};

/** The rows, in the order of §2.4's list. */
const ROWS: Row[] = [
  versioned('business-unit', 'business-units', () => ({ key: unique('unit'), name: 'Unit', unitType: 'Company' }), { action: 'changeName', name: 'Renamed' }, [
    'BusinessUnitCreated',
    'BusinessUnitNameChanged',
    'BusinessUnitDeleted',
  ]),
  versioned('cart', 'carts', () => ({ currency: 'EUR' }), { action: 'setCustomerEmail', email: 'cart@example.com' }),
  versioned('cart-discount', 'cart-discounts', cartDiscountDraft, { action: 'changeName', name: { en: 'Renamed' } }, [
    'CartDiscountCreated',
    'CartDiscountDeleted',
  ]),
  versioned(
    'category',
    'categories',
    () => ({ name: { en: 'Category' }, slug: { en: unique('category') } }),
    { action: 'changeName', name: { en: 'Renamed' } },
    ['CategoryCreated'],
  ),
  versioned('channel', 'channels', () => ({ key: unique('channel') }), { action: 'changeName', name: { en: 'Named' } }),
  customer,
  customerToken('email'),
  versioned('customer-group', 'customer-groups', () => ({ groupName: unique('group') }), { action: 'changeName', name: unique('renamed') }),
  customerToken('password'),
  versioned(
    'discount-code',
    'discount-codes',
    async (world) => ({ code: unique('CODE'), cartDiscounts: [{ id: (await world.admin.ok(`/${P}/cart-discounts`, cartDiscountDraft(), 201)).id }] }),
    { action: 'setName', name: { en: 'Named' } },
    ['DiscountCodeCreated', 'DiscountCodeDeleted'],
  ),
  versioned(
    'extension',
    'extensions',
    () => ({
      destination: { type: 'HTTP', url: 'https://extensions.example.com/every-type' },
      // A trigger no row's request meets: the rows' own writes call no extension.
      triggers: [{ resourceTypeId: 'payment-method', actions: ['Create'] }],
    }),
    { action: 'setKey', key: unique('extension') },
  ),
  versioned('inventory-entry', 'inventory', () => ({ sku: unique('sku'), quantityOnStock: 1 }), { action: 'addQuantity', quantity: 2 }, [
    'InventoryEntryCreated',
    'InventoryEntryQuantitySet',
    'InventoryEntryDeleted',
  ]),
  keyValueDocument,
  versioned('order', 'orders', orderDraft, { action: 'setPurchaseOrderNumber', purchaseOrderNumber: 'PO-1' }, [
    'OrderCreated',
    'OrderPurchaseOrderNumberSet',
    'OrderDeleted',
  ]),
  orderEdit,
  versioned('payment', 'payments', () => ({ amountPlanned: EUR(100) }), { action: 'changeAmountPlanned', amount: EUR(200) }, ['PaymentCreated']),
  versioned(
    'product',
    'products',
    async (world) => ({ productType: { id: (await productType(world)).id }, name: { en: 'Product' }, slug: { en: unique('product') } }),
    { action: 'changeName', name: { en: 'Renamed' } },
    ['ProductCreated', 'ProductDeleted'],
  ),
  versioned(
    'product-discount',
    'product-discounts',
    () => ({ name: { en: 'PD' }, value: { type: 'relative', permyriad: 1000 }, predicate: '1 = 1', sortOrder: `0.${(counter += 1)}7`, isActive: false }),
    { action: 'changeName', name: { en: 'Renamed' } },
  ),
  // Reference: ProductSelection has messages for creation, deletion and assignments, none for changeName.
  versioned('product-selection', 'product-selections', () => ({ name: { en: 'Selection' } }), { action: 'changeName', name: { en: 'Renamed' } }, [
    'ProductSelectionCreated',
    'ProductSelectionDeleted',
  ]),
  versioned('product-type', 'product-types', () => ({ name: unique('Type'), description: 'A row' }), { action: 'changeName', name: unique('Renamed') }),
  versioned('quote-request', 'quote-requests', quoteRequestDraft, { action: 'changeQuoteRequestState', quoteRequestState: 'Accepted' }, [
    'QuoteRequestCreated',
    'QuoteRequestStateChanged',
    'QuoteRequestDeleted',
  ]),
  versioned('quote', 'quotes', quoteDraft, { action: 'changeQuoteState', quoteState: 'Withdrawn' }, ['QuoteCreated', 'QuoteStateChanged', 'QuoteDeleted']),
  versioned('review', 'reviews', () => ({ rating: 3 }), { action: 'setTitle', title: 'Titled' }, ['ReviewCreated']),
  versioned(
    'shipping-method',
    'shipping-methods',
    async (world) => {
      const taxCategory = await world.admin.ok(`/${P}/tax-categories`, { name: unique('Tax') }, 201);
      return { name: unique('Shipping'), taxCategory: { id: taxCategory.id }, zoneRates: [], isDefault: false };
    },
    { action: 'setDescription', description: 'Described' },
  ),
  versioned('shopping-list', 'shopping-lists', () => ({ name: { en: 'List' } }), { action: 'changeName', name: { en: 'Renamed' } }),
  versioned('staged-quote', 'staged-quotes', stagedQuoteDraft, { action: 'setSellerComment', sellerComment: 'Commented' }, [
    'StagedQuoteCreated',
    'StagedQuoteSellerCommentSet',
    'StagedQuoteDeleted',
  ]),
  versioned('standalone-price', 'standalone-prices', () => ({ sku: unique('sku'), value: EUR(100) }), { action: 'changeValue', value: EUR(200) }, [
    'StandalonePriceCreated',
    'StandalonePriceValueChanged',
    'StandalonePriceDeleted',
  ]),
  versioned('state', 'states', () => ({ key: unique('state'), type: 'LineItemState' }), { action: 'setName', name: { en: 'Named' } }),
  versioned('store', 'stores', () => ({ key: unique('store') }), { action: 'setName', name: { en: 'Named' } }, [
    'StoreCreated',
    'StoreNameSet',
    'StoreDeleted',
  ]),
  subscription,
  versioned('tax-category', 'tax-categories', () => ({ name: unique('Tax') }), { action: 'changeName', name: unique('Renamed') }),
  versioned('type', 'types', () => ({ key: unique('type'), name: { en: 'Type' }, resourceTypeIds: ['order'] }), {
    action: 'changeName',
    name: { en: 'Renamed' },
  }),
  versioned('zone', 'zones', () => ({ name: unique('Zone') }), { action: 'changeName', name: unique('Renamed') }),
];

describe('a change subscription to every resource type of §2.4 fires', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let world: World;

  beforeAll(async () => {
    setup = await startSqsGateway(P, ['manage_project']);
    ({ sqs, gateway } = setup);
    const { admin } = setup;
    world = { admin, sqs, customer: await customerWithToken(gateway, P, admin, ['manage_my_orders']) };
  }, 180_000);
  afterAll(() => setup?.close());

  it.each(ROWS.map((row) => [row.typeId, row.how, row] as const))('%s: %s', async (typeId, _how, row) => {
    const queue = await subscribedQueue(sqs, world.admin, P, typeId);
    const created = stepOf(await row.create(world));
    const updated = row.update === undefined ? undefined : await row.update(world, created);
    const deletedVersion = await row.remove(world, updated ?? created);

    const expected: Json[] = [{ notificationType: 'ResourceCreated', version: created.version }];
    if (updated !== undefined) expected.push({ notificationType: 'ResourceUpdated', version: updated.version, oldVersion: created.version });
    expected.push({ notificationType: 'ResourceDeleted', version: deletedVersion });

    const payloads = (await deliveriesAbout(sqs, queue, created.id, expected.length + row.messages.length)).map(payloadOf);
    for (const payload of payloads) expect(payload.resource).toMatchObject({ typeId, id: created.id });
    const changes = payloads.filter((payload) => payload.notificationType !== 'Message');
    const order = ['ResourceCreated', 'ResourceUpdated', 'ResourceDeleted'];
    changes.sort((a, b) => order.indexOf(a.notificationType as string) - order.indexOf(b.notificationType as string));
    expect(changes).toMatchObject(expected);
    const messages = payloads.filter((payload) => payload.notificationType === 'Message');
    messages.sort((a, b) => (a.sequenceNumber as number) - (b.sequenceNumber as number));
    expect(messages.map((message) => message.type)).toEqual(row.messages);
    await row.verify?.(world, created);
  });
});
