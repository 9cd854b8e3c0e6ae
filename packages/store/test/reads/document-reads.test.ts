/**
 * DocumentStore.get by id through the read batcher (issue 30): concurrent reads of one project and
 * type share one statement, and read-after-write (spec §9.2) holds for concurrent clients, also
 * across two stores with their own connections to one database (two gateway processes).
 */
import type { BaseResource } from '@herald/model';
import { createIsolatedDatabase, testDatabaseUrls } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentStore, openDatabase, type Database } from '../../src/index.js';
import { countingStatements } from '../support/counting-statements.js';

interface Counter extends BaseResource {
  key?: string;
  count: number;
}

const ctx = { projectKey: 'p1' };

describe.each(testDatabaseUrls())('DocumentStore reads by id on %s', (serverUrl) => {
  let databases: Database[];
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const isolated = await createIsolatedDatabase(serverUrl);
    drop = isolated.drop;
    const first = await openDatabase(isolated.url);
    // Two pools on one PostgreSQL database stand for two gateway processes; in-memory PGlite
    // belongs to one process, so both stores share it there.
    const second = serverUrl.startsWith('postgres') ? await openDatabase(isolated.url) : first;
    databases = [first, second];
  });
  afterAll(async () => {
    for (const db of new Set(databases)) await db.close();
    await drop();
  });

  it('answers concurrent reads of one project and type with one statement, each read its own document', async () => {
    const store = new DocumentStore(databases[0]!);
    const created = await Promise.all(Array.from({ length: 20 }, (_, count) => store.create<Counter>(ctx, 'counter', { count })));
    const observed = countingStatements(databases[0]!);
    const reader = new DocumentStore(observed.db);
    const ids = [...created.map((doc) => doc.id), 'no-such-id'];
    const read = await Promise.all(ids.map((id) => reader.get<Counter>('p1', 'counter', { id })));
    expect(read.map((doc) => doc?.count)).toEqual([...created.map((doc) => doc.count), undefined]);
    expect(observed.count()).toBe(1);
  });

  it('shows every client a write acknowledged before its read started, in either store', async () => {
    const stores = databases.map((db) => new DocumentStore(db));
    const counters = await Promise.all(Array.from({ length: 4 }, () => stores[0]!.create<Counter>(ctx, 'counter', { count: 0 })));
    const acknowledged = new Map(counters.map((doc) => [doc.id, doc.version]));
    const violations: string[] = [];

    const writer = async (id: string, store: DocumentStore) => {
      for (let i = 0; i < 15; i++) {
        const current = (await store.get<Counter>('p1', 'counter', { id }))!;
        const next = await store.update<Counter>(ctx, 'counter', { id }, current.version, (doc) => ({ doc: { ...doc, count: doc.count + 1 } }));
        acknowledged.set(id, Math.max(acknowledged.get(id) ?? 0, next.version));
      }
    };
    const reader = async (store: DocumentStore) => {
      for (let i = 0; i < 60; i++) {
        const id = counters[i % counters.length]!.id;
        const floor = acknowledged.get(id) ?? 0;
        const doc = await store.get<Counter>('p1', 'counter', { id });
        if ((doc?.version ?? 0) < floor) violations.push(`${id}: read version ${doc?.version} after ${floor} was acknowledged`);
      }
    };
    await Promise.all([
      ...counters.map((doc, i) => writer(doc.id, stores[i % stores.length]!)),
      ...Array.from({ length: 8 }, (_, i) => reader(stores[i % stores.length]!)),
    ]);
    expect(violations).toEqual([]);
    const final = await Promise.all(counters.map((doc) => stores[1]!.get<Counter>('p1', 'counter', { id: doc.id })));
    expect(final.map((doc) => doc?.count)).toEqual([15, 15, 15, 15]);
  });
});
