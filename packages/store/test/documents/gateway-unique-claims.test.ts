import type { BaseResource } from '@herald/model';
import { createIsolatedDatabase, testDatabaseUrls } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentStore, MIGRATIONS, openDatabase, runMigrations, type Database } from '../../src/index.js';

/**
 * Migration 014: customer groups, shipping methods, inventory entries and payments stored before
 * their values were claimed claim them on upgrade, the oldest first, in the texts the gateway
 * declares (customer-groups/unique-name.ts, shipping-methods/uniqueness.ts, inventory/unique-sku.ts,
 * payments/interface-uniqueness.ts).
 */
describe.each(testDatabaseUrls())('Migration 014 on %s', (serverUrl) => {
  let db: Database;
  let drop: () => Promise<void>;
  const ctx = { projectKey: 'p1' };

  beforeAll(async () => {
    const isolated = await createIsolatedDatabase(serverUrl);
    drop = isolated.drop;
    db = await openDatabase(isolated.url);
  });
  afterAll(async () => {
    await db.close();
    await drop();
  });

  it('claims the names, SKU combinations and interface pairs of documents stored before it', async () => {
    const migration = MIGRATIONS.find(({ name }) => name === 'gateway-unique-claims');
    let time = Date.parse('2026-01-01T00:00:00.000Z');
    // Written as the release before did: no claims (a store without declarations).
    const legacy = new DocumentStore(db, { now: () => new Date((time += 1000)) });
    const write = (typeId: string, doc: object) => legacy.create<BaseResource>(ctx, typeId, doc as unknown as BaseResource);
    const group = await write('customer-group', { name: 'Gold' });
    await write('customer-group', { name: 'Gold' });
    const method = await write('shipping-method', { name: 'Gold' });
    const plain = await write('inventory-entry', { sku: 'a"b' });
    const supplied = await write('inventory-entry', { sku: 'a"b', supplyChannel: { typeId: 'channel', id: 'c-1' } });
    const paid = await write('payment', { interfaceId: 'x:1', paymentMethodInfo: { paymentInterface: 'p\n"q' } });
    await write('payment', { interfaceId: 'no-interface', paymentMethodInfo: {} });
    await write('payment', { paymentMethodInfo: { paymentInterface: 'no-id' } });
    const long = await write('shipping-method', { name: 'n'.repeat(2_000) });
    await db.exec(`DELETE FROM unique_values; DELETE FROM herald_migrations WHERE id = ${migration?.id};`);

    await runMigrations(db);
    const claims = await db.query<{ type_id: string; field: string; value: string; resource_id: string }>(
      'SELECT type_id, field, value, resource_id FROM unique_values ORDER BY type_id, field, value',
    );
    expect(claims.rows).toEqual([
      { type_id: 'customer-group', field: 'name', value: 'Gold', resource_id: group.id },
      // The texts the gateway builds: a JSON string (JSON.stringify), a colon and the value.
      { type_id: 'inventory-entry', field: 'sku', value: `${JSON.stringify('c-1')}:a"b`, resource_id: supplied.id },
      { type_id: 'inventory-entry', field: 'sku', value: 'null:a"b', resource_id: plain.id },
      { type_id: 'payment', field: 'interfaceId', value: `${JSON.stringify('p\n"q')}:x:1`, resource_id: paid.id },
      { type_id: 'shipping-method', field: 'name', value: 'Gold', resource_id: method.id },
      { type_id: 'shipping-method', field: 'name', value: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) as unknown as string, resource_id: long.id },
    ]);
  });
});
