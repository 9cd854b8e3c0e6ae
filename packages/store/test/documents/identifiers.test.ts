import type { BaseResource } from '@herald/model';
import { createIsolatedDatabase, testDatabaseUrls } from '@herald/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DocumentStore, openDatabase, type Database } from '../../src/index.js';

type Doc = BaseResource & Record<string, unknown>;

/**
 * §6.2 `resourceUserProvidedIdentifiers` in what a write emits: the structure of the reference
 * type UserProvidedIdentifiers (key, externalId, orderNumber, customerNumber, sku, slug,
 * containerAndKey), and `{}` for a resource without any, in messages (Messages API rows and
 * outbox) and in each change notification.
 */
describe.each(testDatabaseUrls())('resourceUserProvidedIdentifiers on %s', (serverUrl) => {
  let db: Database;
  let drop: () => Promise<void>;
  let store: DocumentStore;
  const ctx = { projectKey: 'ids' };

  beforeAll(async () => {
    const isolated = await createIsolatedDatabase(serverUrl);
    drop = isolated.drop;
    db = await openDatabase(isolated.url);
    store = new DocumentStore(db);
  });
  afterAll(async () => {
    await db.close();
    await drop();
  });
  beforeEach(async () => {
    await db.query('DELETE FROM outbox');
    await db.query('DELETE FROM messages');
  });

  /** The identifiers of every outbox payload and stored message, in write order. */
  async function emitted(): Promise<unknown[]> {
    const outbox = await db.query<{ payload: Record<string, unknown> }>('SELECT payload FROM outbox ORDER BY seq');
    const stored = await db.query<{ doc: Record<string, unknown> }>('SELECT doc FROM messages ORDER BY sequence_number');
    return [...outbox.rows.map((row) => row.payload), ...stored.rows.map((row) => row.doc)].map((event) => event.resourceUserProvidedIdentifiers);
  }

  async function lifecycle(typeId: string, fields: Record<string, unknown>): Promise<unknown[]> {
    const created = await store.create<Doc>(ctx, typeId, fields, () => [{ type: 'Created' }]);
    const updated = await store.update<Doc>(ctx, typeId, { id: created.id }, 1, (doc) => ({ doc: { ...doc, note: 'x' } }));
    await store.delete<Doc>(ctx, typeId, { id: created.id }, updated.version);
    return emitted();
  }

  it('is {} for a resource without identifiers: messages, created, updated and deleted notifications', async () => {
    // outbox: message, ResourceCreated, ResourceUpdated, ResourceDeleted; then the stored message.
    expect(await lifecycle('cart', { lineItems: [] })).toEqual([{}, {}, {}, {}, {}]);
  });

  it('carries key, externalId and customerNumber of a customer', async () => {
    const identifiers = { key: 'c-1', externalId: 'ext-1', customerNumber: 'C-0001' };
    expect(await lifecycle('customer', { ...identifiers, email: 'a@example.com' })).toEqual(Array(5).fill(identifiers));
  });

  it("carries a product's key and the slug of its current projection, a LocalizedString", async () => {
    const product = { key: 'shirt', masterData: { current: { slug: { en: 'shirt', de: 'hemd' } }, staged: { slug: { en: 'staged' } } } };
    expect(await lifecycle('product', product)).toEqual(Array(5).fill({ key: 'shirt', slug: { en: 'shirt', de: 'hemd' } }));
  });

  it('carries the sku of an inventory entry and the orderNumber of an order', async () => {
    expect(await lifecycle('inventory-entry', { sku: 'SKU-1', quantityOnStock: 3 })).toEqual(Array(5).fill({ sku: 'SKU-1' }));
    await db.query('DELETE FROM outbox');
    await db.query('DELETE FROM messages');
    expect(await lifecycle('order', { orderNumber: 'O-7' })).toEqual(Array(5).fill({ orderNumber: 'O-7' }));
  });

  it('identifies a custom object by containerAndKey (its key is unique only within the container)', async () => {
    const identifiers = await lifecycle('key-value-document', { container: 'settings', key: 'theme', value: 'dark' });
    expect(identifiers).toEqual(Array(5).fill({ containerAndKey: { key: 'theme', container: 'settings' } }));
  });

  it('ignores fields of the wrong type (a slug that is not a LocalizedString, a numeric key)', async () => {
    expect(await lifecycle('category', { key: 7, slug: { en: 3 }, sku: null })).toEqual([{}, {}, {}, {}, {}]);
  });
});
