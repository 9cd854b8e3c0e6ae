/**
 * Issue 29: the Review resource `/{projectKey}/reviews` (reference: resources/reviews.raml,
 * types/review): drafts, every update action, `includedInStatistics` through the State's role,
 * the product's and channel's `reviewRatingStatistics` kept with each review change, and the
 * Review messages and change notifications delivered to an SQS subscription (fauxqs).
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, customerWithToken, type Caller, type Json } from '../carts/commerce.js';
import type { TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, payloadOf, subscribedQueue } from '../subscriptions/support.js';

const SETUP_MS = 180_000;
const P = 'reviews';
const name = (text: string) => ({ en: text });

describe('Review /{projectKey}/reviews', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;
  let viewer: Caller;
  let customerId: string;
  let productCount = 0;

  /** A fresh product of the `plain` type: each test's statistics start from nothing. */
  async function newProduct(): Promise<Json> {
    productCount++;
    const key = `reviewed-${productCount}`;
    return admin.ok(`/${P}/products`, { key, productType: { typeId: 'product-type', key: 'plain' }, name: name(key), slug: name(key) }, 201);
  }

  const productRef = (product: Json) => ({ typeId: 'product', id: product.id as string });

  beforeAll(async () => {
    setup = await startSqsGateway(P, [
      'manage_products',
      'manage_product_types',
      'manage_states',
      'manage_channels',
      'manage_customers',
      'manage_subscriptions',
    ]);
    ({ sqs, gateway, admin } = setup);
    viewer = await callerWith(gateway, P, ['view_products']);
    await admin.ok(`/${P}/product-types`, { key: 'plain', name: 'Plain', description: 'Plain', attributes: [] }, 201);
    // An approval workflow: pending (initial, not counted) → approved (counted); rejected is not counted.
    await admin.ok(`/${P}/states`, { key: 'approved', type: 'ReviewState', initial: false, roles: ['ReviewIncludedInStatistics'] }, 201);
    await admin.ok(`/${P}/states`, { key: 'rejected', type: 'ReviewState', initial: false }, 201);
    await admin.ok(
      `/${P}/states`,
      {
        key: 'pending',
        type: 'ReviewState',
        initial: true,
        transitions: [
          { typeId: 'state', key: 'approved' },
          { typeId: 'state', key: 'rejected' },
        ],
      },
      201,
    );
    await admin.ok(`/${P}/states`, { key: 'product-state', type: 'ProductState' }, 201);
    await admin.ok(`/${P}/channels`, { key: 'shop', roles: ['ProductDistribution'] }, 201);
    customerId = (await customerWithToken(gateway, P, admin, [])).id;
  }, SETUP_MS);
  afterAll(() => setup?.close());

  it('creates a review with the reference fields and reads it by id, key and query', async () => {
    const product = await newProduct();
    const review = await admin.ok(
      `/${P}/reviews`,
      {
        key: 'first',
        uniquenessValue: `${customerId}-${product.id}`,
        locale: 'en',
        authorName: 'Bea',
        title: 'Sturdy',
        text: 'Holds up.',
        rating: 80,
        target: productRef(product),
        customer: { typeId: 'customer', id: customerId },
      },
      201,
    );
    expect(review).toMatchObject({
      version: 1,
      key: 'first',
      rating: 80,
      target: productRef(product),
      customer: { typeId: 'customer', id: customerId },
      // Without a State a review counts ("per default used in the statistics").
      includedInStatistics: true,
    });
    expect(await viewer.read(`/${P}/reviews/${review.id}`)).toEqual(review);
    expect(await viewer.read(`/${P}/reviews/key=first`)).toEqual(review);
    const page = await viewer.read(`/${P}/reviews?where=${encodeURIComponent('rating > 50 and title = "Sturdy"')}&sort=rating%20desc`);
    expect(page.results.map((found: Json) => found.id)).toEqual([review.id]);
    const expanded = await viewer.read(`/${P}/reviews/${review.id}?expand=target`);
    expect(expanded.target.obj).toMatchObject({ id: product.id, reviewRatingStatistics: { count: 1, averageRating: 80 } });
  });

  it('refuses bad drafts with 400s in the error shape and the official codes', async () => {
    const product = await newProduct();
    await admin.ok(`/${P}/reviews`, { key: 'unique', uniquenessValue: 'once', target: productRef(product), rating: 1 }, 201);
    const cases: Array<[Json, string, string?]> = [
      [{ rating: 101 }, 'InvalidInput', 'rating'],
      [{ rating: -101 }, 'InvalidInput', 'rating'],
      [{ rating: 1.5 }, 'InvalidInput', 'rating'],
      [{ rating: '5' }, 'InvalidInput', 'rating'],
      [{ title: 5 }, 'InvalidInput', 'title'],
      [{ text: {} }, 'InvalidInput', 'text'],
      [{ authorName: [] }, 'InvalidInput', 'authorName'],
      [{ locale: 'not a locale' }, 'InvalidInput', 'locale'],
      [{ key: 'x' }, 'InvalidInput', 'key'],
      [{ key: 'unique' }, 'DuplicateField', 'key'],
      [{ uniquenessValue: 'once' }, 'DuplicateField', 'uniquenessValue'],
      [{ target: { typeId: 'category', id: 'x' } }, 'InvalidInput', 'target'],
      [{ target: { typeId: 'product', id: 'no-such-product' } }, 'ReferencedResourceNotFound'],
      [{ target: { typeId: 'channel', key: 'no-such-channel' } }, 'ReferencedResourceNotFound'],
      [{ customer: { typeId: 'customer', id: 'nobody' } }, 'ReferencedResourceNotFound'],
      [{ state: { typeId: 'state', key: 'no-such-state' } }, 'ReferencedResourceNotFound'],
      [{ state: { typeId: 'state', key: 'product-state' } }, 'InvalidInput', 'state'],
      [{ custom: { type: { typeId: 'type', key: 'no-such-type' } } }, 'InvalidInput'],
      [[], 'InvalidInput'],
    ];
    for (const [draft, code, field] of cases) {
      const answer = await admin.post(`/${P}/reviews`, draft);
      expect(answer.status, JSON.stringify(draft)).toBe(400);
      expect(answer.body, JSON.stringify(draft)).toMatchObject({ statusCode: 400, errors: [{ code, ...(field === undefined ? {} : { field }) }] });
    }
    expect((await viewer.post(`/${P}/reviews`, { rating: 1 })).status).toBe(403);
  });

  it('applies every update action; transitionState follows the workflow unless forced', async () => {
    const [product, other] = [await newProduct(), await newProduct()];
    const review = await admin.ok(`/${P}/reviews`, { rating: 10 }, 201);
    const updated = await admin.update(`/${P}/reviews/${review.id}`, 1, [
      { action: 'setKey', key: 'acted' },
      { action: 'setAuthorName', authorName: 'Carl' },
      { action: 'setTitle', title: 'Fine' },
      { action: 'setText', text: 'It is fine.' },
      { action: 'setLocale', locale: 'de-DE' },
      { action: 'setCustomer', customer: { id: customerId } },
      { action: 'setTarget', target: productRef(product) },
      { action: 'setTarget', target: { typeId: 'channel', key: 'shop' } },
      { action: 'setTarget', target: productRef(other) },
      { action: 'setRating', rating: -20 },
      { action: 'transitionState', state: { typeId: 'state', key: 'pending' } },
      { action: 'transitionState', state: { typeId: 'state', key: 'approved' } },
    ]);
    expect(updated).toMatchObject({
      version: 2,
      key: 'acted',
      authorName: 'Carl',
      title: 'Fine',
      text: 'It is fine.',
      locale: 'de-DE',
      customer: { typeId: 'customer', id: customerId },
      target: productRef(other),
      rating: -20,
      includedInStatistics: true,
    });
    const cleared = await admin.update(`/${P}/reviews/key=acted`, 2, [
      { action: 'setKey' },
      { action: 'setAuthorName' },
      { action: 'setTitle' },
      { action: 'setText' },
      { action: 'setLocale' },
      { action: 'setCustomer' },
      { action: 'setRating' },
    ]);
    for (const field of ['key', 'authorName', 'title', 'text', 'locale', 'customer', 'rating']) expect(cleared[field], field).toBeUndefined();

    const refusals: Array<[Json, string]> = [
      // approved lists no transitions: any ReviewState may follow; a ProductState may not.
      [{ action: 'transitionState', state: { typeId: 'state', key: 'product-state' } }, 'InvalidInput'],
      [{ action: 'transitionState' }, 'InvalidInput'],
      [{ action: 'setTarget' }, 'InvalidInput'],
      [{ action: 'setRating', rating: 1000 }, 'InvalidInput'],
      [{ action: 'setTarget', target: { typeId: 'product', id: 'gone' } }, 'ReferencedResourceNotFound'],
    ];
    for (const [action, code] of refusals) {
      const answer = await admin.post(`/${P}/reviews/${review.id}`, { version: cleared.version, actions: [action] });
      expect(answer.status, JSON.stringify(action)).toBe(400);
      expect(answer.body.errors[0].code, JSON.stringify(action)).toBe(code);
    }
    // A review without a State may only enter an initial one; pending may not go back to itself.
    const fresh = await admin.ok(`/${P}/reviews`, {}, 201);
    const notInitial = await admin.post(`/${P}/reviews/${fresh.id}`, { version: 1, actions: [{ action: 'transitionState', state: { key: 'approved' } }] });
    expect(notInitial.body.errors[0].code).toBe('InvalidOperation');
    const pending = await admin.update(`/${P}/reviews/${fresh.id}`, 1, [{ action: 'transitionState', state: { key: 'pending' } }]);
    const noTransition = await admin.post(`/${P}/reviews/${fresh.id}`, {
      version: pending.version,
      actions: [{ action: 'transitionState', state: { key: 'pending' } }],
    });
    expect(noTransition.body.errors[0].code).toBe('InvalidOperation');
    const forced = await admin.update(`/${P}/reviews/${fresh.id}`, pending.version, [{ action: 'transitionState', state: { key: 'pending' }, force: true }]);
    expect(forced.version).toBe(pending.version + 1);
  });

  it('keeps the product’s reviewRatingStatistics as reviews are created, rated, moved between states and targets, and deleted', async () => {
    const product = await newProduct();
    const statistics = async (target: Json = product) => (await viewer.read(`/${P}/products/${target.id}`)).reviewRatingStatistics;
    const review = (rating: number, extra: Json = {}) => admin.ok(`/${P}/reviews`, { rating, target: productRef(product), ...extra }, 201);

    const counted = await review(60);
    const alsoCounted = await review(20);
    // In a State without the ReviewIncludedInStatistics role: not counted.
    const pending = await review(100, { state: { typeId: 'state', key: 'pending' } });
    expect(pending.includedInStatistics).toBe(false);
    expect(await statistics()).toEqual({ averageRating: 40, highestRating: 60, lowestRating: 20, count: 2, ratingsDistribution: { '20': 1, '60': 1 } });

    const approved = await admin.update(`/${P}/reviews/${pending.id}`, 1, [{ action: 'transitionState', state: { key: 'approved' } }]);
    expect(approved.includedInStatistics).toBe(true);
    expect(await statistics()).toEqual({
      averageRating: 60,
      highestRating: 100,
      lowestRating: 20,
      count: 3,
      ratingsDistribution: { '20': 1, '60': 1, '100': 1 },
    });

    await admin.update(`/${P}/reviews/${alsoCounted.id}`, 1, [{ action: 'setRating', rating: 21 }]);
    const third = (100 + 60 + 21) / 3;
    expect(await statistics()).toMatchObject({ averageRating: Math.round(third * 100_000) / 100_000, lowestRating: 21, count: 3 });

    const rejected = await admin.update(`/${P}/reviews/${approved.id}`, approved.version, [{ action: 'transitionState', state: { key: 'rejected' } }]);
    expect(rejected.includedInStatistics).toBe(false);
    expect(await statistics()).toMatchObject({ averageRating: 40.5, highestRating: 60, count: 2 });

    // Moving a review to another target moves its rating with it.
    const other = await newProduct();
    await admin.update(`/${P}/reviews/${counted.id}`, 1, [{ action: 'setTarget', target: productRef(other) }]);
    expect(await statistics()).toMatchObject({ averageRating: 21, count: 1, ratingsDistribution: { '21': 1 } });
    expect(await statistics(other)).toMatchObject({ averageRating: 60, count: 1 });

    // A review without a rating does not count; deleting the last counted one removes the statistics.
    await admin.update(`/${P}/reviews/${alsoCounted.id}`, 2, [{ action: 'setRating' }]);
    expect(await statistics()).toBeUndefined();
    await admin.delete(`/${P}/reviews/${counted.id}?version=2`);
    expect(await statistics(other)).toBeUndefined();
    // Derived data, kept in place: the product's version (and a merchant's next update) is untouched.
    expect((await viewer.read(`/${P}/products/${product.id}`)).version).toBe(product.version);
  });

  it('keeps a channel’s reviewRatingStatistics too', async () => {
    const channel = await admin.read(`/${P}/channels/key=shop`);
    const review = await admin.ok(`/${P}/reviews`, { rating: 5, target: { typeId: 'channel', id: channel.id } }, 201);
    expect((await admin.read(`/${P}/channels/key=shop`)).reviewRatingStatistics).toMatchObject({ count: 1, averageRating: 5 });
    await admin.delete(`/${P}/reviews/${review.id}?version=1`);
    expect((await admin.read(`/${P}/channels/key=shop`)).reviewRatingStatistics).toBeUndefined();
  });

  it('delivers its messages and change notifications to an SQS subscription, in sequence', async () => {
    const product = await newProduct();
    const queue = await subscribedQueue(sqs, admin, P, 'review');
    const review = await admin.ok(`/${P}/reviews`, { rating: 3, target: productRef(product) }, 201);
    await admin.update(`/${P}/reviews/${review.id}`, 1, [
      { action: 'setRating', rating: 4 },
      { action: 'transitionState', state: { key: 'pending' } },
      { action: 'setTitle', title: 'Delivered' },
    ]);
    await admin.delete(`/${P}/reviews/${review.id}?version=2`);

    const id = review.id as string;
    const documents = await deliveriesAbout(sqs, queue, id, 6);
    expect(labels(documents)).toEqual(
      [
        `review:${id}:Message:ReviewCreated:1`,
        `review:${id}:Message:ReviewRatingSet:2`,
        `review:${id}:Message:ReviewStateTransition:3`,
        `review:${id}:ResourceCreated:1`,
        `review:${id}:ResourceUpdated:2`,
        `review:${id}:ResourceDeleted:2`,
      ].sort(),
    );
    const messages = documents
      .map(payloadOf)
      .filter((payload) => payload.notificationType === 'Message')
      .sort((a, b) => a.sequenceNumber - b.sequenceNumber);
    expect(messages[0]).toMatchObject({ review: { id, rating: 3 } });
    expect(messages[1]).toMatchObject({ oldRating: 3, newRating: 4, includedInStatistics: true, target: productRef(product) });
    expect(messages[2]).toMatchObject({
      newState: { typeId: 'state' },
      oldIncludedInStatistics: true,
      newIncludedInStatistics: false,
      target: productRef(product),
      force: false,
    });
    expect(messages[2]?.oldState).toBeUndefined();
  });
});
