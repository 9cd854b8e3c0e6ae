/**
 * Issue 29: Custom Objects `/{projectKey}/custom-objects` (reference: resources/custom-objects.raml,
 * types/custom-object): create or update by container and key with the version rules, query in a
 * container, get and delete, value predicates and expansion, the draft's 400s, the scopes, and the
 * `key-value-document` change notifications delivered to an SQS subscription.
 */
import { checkAgainstReference, type SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import { ACCEPTED_EXTRA_FIELDS } from '../compat/reference-extras.js';
import type { TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, payloadOf, subscribedQueue } from '../subscriptions/support.js';

const SETUP_MS = 180_000;
const P = 'custom-objects';
/** Violations of the official type, the spec's extra fields (§2.1 isPlatformClient) accepted. */
const violations = (type: string, value: unknown) => checkAgainstReference(type, value, { extraFields: ACCEPTED_EXTRA_FIELDS });
const where = (predicate: string) => `where=${encodeURIComponent(predicate)}`;

describe('Custom Objects /{projectKey}/custom-objects', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;
  let viewer: Caller;
  let orders: Caller;

  beforeAll(async () => {
    setup = await startSqsGateway(P, ['manage_key_value_documents', 'manage_subscriptions', 'manage_types']);
    ({ sqs, gateway, admin } = setup);
    viewer = await callerWith(gateway, P, ['view_key_value_documents']);
    orders = await callerWith(gateway, P, ['manage_orders']);
  }, SETUP_MS);
  afterAll(() => setup?.close());

  it('creates (201), then replaces the value as a new version (200), and reads it by container and key', async () => {
    const created = await admin.ok(`/${P}/custom-objects`, { container: 'settings', key: 'checkout', value: { steps: 3, note: null } }, 201);
    // Fields within `value` that are null are not saved.
    expect(created).toMatchObject({ version: 1, container: 'settings', key: 'checkout', value: { steps: 3 } });
    expect(created.value).not.toHaveProperty('note');
    expect(created).toHaveProperty('id');
    const replaced = await admin.ok(`/${P}/custom-objects`, { container: 'settings', key: 'checkout', value: [1, 'two', { three: null }] }, 200);
    expect(replaced).toMatchObject({ id: created.id, version: 2, value: [1, 'two', {}] });
    expect(await viewer.read(`/${P}/custom-objects/settings/checkout`)).toEqual(replaced);
    // Every field the official CustomObject type requires, in the create, the replace and a page.
    expect(violations('CustomObject', created)).toEqual([]);
    expect(violations('CustomObject', replaced)).toEqual([]);
    expect(violations('CustomObjectPagedQueryResponse', await viewer.read(`/${P}/custom-objects/settings`))).toEqual([]);
    // The same key in another container is another object.
    const other = await admin.ok(`/${P}/custom-objects`, { container: 'other', key: 'checkout', value: 'x' }, 201);
    expect(other.id).not.toBe(created.id);
    expect((await viewer.read(`/${P}/custom-objects/other/checkout`)).value).toBe('x');
  });

  it('honours the draft version: 0 only creates, n only replaces version n, a mismatch is 409', async () => {
    const first = await admin.ok(`/${P}/custom-objects`, { container: 'versions', key: 'a', value: 1, version: 0 }, 201);
    const again = await admin.post(`/${P}/custom-objects`, { container: 'versions', key: 'a', value: 2, version: 0 });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ statusCode: 409, errors: [{ code: 'ConcurrentModification', currentVersion: 1 }] });
    const stale = await admin.post(`/${P}/custom-objects`, { container: 'versions', key: 'a', value: 2, version: 7 });
    expect(stale.body).toMatchObject({ statusCode: 409, errors: [{ code: 'ConcurrentModification', currentVersion: 1 }] });
    const missing = await admin.post(`/${P}/custom-objects`, { container: 'versions', key: 'nothing-here', value: 2, version: 3 });
    expect(missing.status).toBe(409);
    expect(await admin.ok(`/${P}/custom-objects`, { container: 'versions', key: 'a', value: 2, version: 1 }, 200)).toMatchObject({
      id: first.id,
      version: 2,
      value: 2,
    });
    expect((await viewer.read(`/${P}/custom-objects/versions/a`)).value).toBe(2);
  });

  it('answers concurrent writes to one object without a version with one 409 each, never a lost update', async () => {
    await admin.ok(`/${P}/custom-objects`, { container: 'race', key: 'counter', value: 0 }, 201);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) => admin.post(`/${P}/custom-objects`, { container: 'race', key: 'counter', value: index + 1 })),
    );
    const succeeded = answers.filter((answer) => answer.status === 200);
    expect(answers.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true);
    const final = await viewer.read(`/${P}/custom-objects/race/counter`);
    // Each success made exactly one version: none was overwritten unseen.
    expect(final.version).toBe(1 + succeeded.length);
  });

  it('refuses bad drafts and bad paths with 400s in the error shape', async () => {
    const cases: Array<[Json, string]> = [
      [{ key: 'k', value: 1 }, 'RequiredField'],
      [{ container: 'c', value: 1 }, 'RequiredField'],
      [{ container: 'c', key: 'k' }, 'RequiredField'],
      [{ container: 'c', key: 'k', value: null }, 'RequiredField'],
      [{ container: 'with space', key: 'k', value: 1 }, 'InvalidInput'],
      [{ container: 'c', key: 'a/b', value: 1 }, 'InvalidInput'],
      [{ container: 'c', key: 'k'.repeat(257), value: 1 }, 'InvalidInput'],
      [{ container: 'c', key: '', value: 1 }, 'InvalidInput'],
      [{ container: 7, key: 'k', value: 1 }, 'InvalidInput'],
      [{ container: 'c', key: 'k', value: 1, version: 'one' }, 'InvalidInput'],
      [{ container: 'c', key: 'k', value: 1, version: -1 }, 'InvalidInput'],
    ];
    for (const [draft, code] of cases) {
      const answer = await admin.post(`/${P}/custom-objects`, draft);
      expect(answer.status, JSON.stringify(draft)).toBe(400);
      expect(answer.body, JSON.stringify(draft)).toMatchObject({ statusCode: 400, errors: [{ code }] });
    }
    expect((await admin.post(`/${P}/custom-objects`, [1, 2])).status).toBe(400);
    expect((await viewer.get(`/${P}/custom-objects/bad%20container/k`)).status).toBe(400);
    expect((await viewer.get(`/${P}/custom-objects/settings/absent`)).body).toMatchObject({ statusCode: 404, errors: [{ code: 'ResourceNotFound' }] });
  });

  it('accepts any of the four manage scopes to write and the view scopes to read; a view scope cannot write', async () => {
    expect((await orders.ok(`/${P}/custom-objects`, { container: 'scopes', key: 'by-orders', value: true }, 201)).value).toBe(true);
    expect((await viewer.post(`/${P}/custom-objects`, { container: 'scopes', key: 'by-viewer', value: true })).status).toBe(403);
    expect((await orders.get(`/${P}/custom-objects/scopes/by-orders`)).status).toBe(200);
  });

  it('queries within a container with value predicates and sort, and across containers', async () => {
    for (const [key, amount] of [
      ['x', 5],
      ['y', 15],
      ['z', 25],
    ] as const) {
      await admin.ok(`/${P}/custom-objects`, { container: 'query', key, value: { amount, nested: { flag: amount > 10 } } }, 201);
    }
    await admin.ok(`/${P}/custom-objects`, { container: 'query-other', key: 'x', value: { amount: 100 } }, 201);
    const inContainer = await viewer.read(`/${P}/custom-objects/query?sort=${encodeURIComponent('key desc')}`);
    expect(inContainer.results.map((object: Json) => object.key)).toEqual(['z', 'y', 'x']);
    expect(inContainer.total).toBe(3);
    const filtered = await viewer.read(`/${P}/custom-objects/query?${where('value(amount > 10 and nested(flag = true))')}`);
    expect(filtered.results.map((object: Json) => object.key).sort()).toEqual(['y', 'z']);
    const everywhere = await viewer.read(`/${P}/custom-objects?${where('key = "x" and container in ("query", "query-other")')}&sort=container`);
    expect(everywhere.results.map((object: Json) => `${object.container as string}/${object.key as string}`)).toEqual(['query/x', 'query-other/x']);
  });

  it('expands a Reference in the value', async () => {
    const type = await admin.ok(`/${P}/types`, { key: 'co-ref', name: { en: 'Ref' }, resourceTypeIds: ['order'], fieldDefinitions: [] }, 201);
    await admin.ok(`/${P}/custom-objects`, { container: 'refs', key: 'type', value: { typeId: 'type', id: type.id } }, 201);
    const expanded = await admin.read(`/${P}/custom-objects/refs/type?expand=value`);
    expect(expanded.value).toMatchObject({ typeId: 'type', id: type.id, obj: { key: 'co-ref' } });
  });

  it('deletes with or without a version; a stale version is 409', async () => {
    const object = await admin.ok(`/${P}/custom-objects`, { container: 'delete', key: 'a', value: 1 }, 201);
    expect((await admin.delete(`/${P}/custom-objects/delete/a?version=5`)).body).toMatchObject({
      statusCode: 409,
      errors: [{ code: 'ConcurrentModification' }],
    });
    expect((await admin.delete(`/${P}/custom-objects/delete/a?version=1`)).body).toMatchObject({ id: object.id, version: 1 });
    await admin.ok(`/${P}/custom-objects`, { container: 'delete', key: 'b', value: 1 }, 201);
    expect((await admin.delete(`/${P}/custom-objects/delete/b`)).status).toBe(200);
    expect((await viewer.get(`/${P}/custom-objects/delete/b`)).status).toBe(404);
    expect((await admin.delete(`/${P}/custom-objects/delete/b`)).status).toBe(404);
  });

  it('delivers its change notifications (key-value-document) to an SQS subscription, with container and key', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'key-value-document');

    const object = await admin.ok(`/${P}/custom-objects`, { container: 'delivered', key: 'one', value: 1 }, 201);
    await admin.ok(`/${P}/custom-objects`, { container: 'delivered', key: 'one', value: 2 }, 200);
    await admin.delete(`/${P}/custom-objects/delivered/one?version=2`);

    const documents = await deliveriesAbout(sqs, queue, object.id as string, 3);
    const id = object.id as string;
    expect(labels(documents)).toEqual([
      `key-value-document:${id}:ResourceCreated:1`,
      `key-value-document:${id}:ResourceDeleted:2`,
      `key-value-document:${id}:ResourceUpdated:2`,
    ]);
    for (const document of documents) {
      expect(payloadOf(document).resourceUserProvidedIdentifiers).toEqual({ containerAndKey: { container: 'delivered', key: 'one' } });
    }
  });
});
