/**
 * Read-after-write (spec §9.2, issue 30) across two gateways on one database, as two gateway
 * processes behind a load balancer run: whatever a client's write was acknowledged by one gateway,
 * its next GET by id on the other answers that version or a newer one, never an older one, while
 * other clients keep both gateways' by-id reads busy (so that reads are batched and held back
 * behind running statements). On PostgreSQL each gateway has its own pool; in-memory PGlite
 * belongs to one process, so both gateways share it there.
 */
import { createIsolatedDatabase } from '@herald/testkit';
import { openDatabase, ProjectStore, type Database } from '@herald/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway, type Gateway } from '../../src/app.js';
import { defaultConfig, type HeraldConfig } from '../../src/config/config.js';
import { basicAuth, bearer, TEST_BOOTSTRAP_CLIENT } from '../support/gateway.js';

const P = 'raw-across';
const CLIENTS = 8;
const WRITES_PER_CLIENT = 12;

interface Store {
  id: string;
  version: number;
  name: { en: string };
}

describe('read-after-write across two gateways on one database', () => {
  let databases: Database[];
  let gateways: Gateway[];
  let drop: () => Promise<void>;
  let headers: Record<string, string>;

  beforeAll(async () => {
    const server = process.env.DATABASE_URL;
    const isolated = await createIsolatedDatabase(server?.startsWith('postgres') === true ? server : 'pglite://memory');
    drop = isolated.drop;
    const first = await openDatabase(isolated.url);
    databases = [first, server?.startsWith('postgres') === true ? await openDatabase(isolated.url) : first];
    await new ProjectStore(first).ensure(P);
    const base = defaultConfig();
    const config: HeraldConfig = Object.freeze({
      ...base,
      projects: [P],
      oauth: { ...base.oauth, bootstrapClient: { ...TEST_BOOTSTRAP_CLIENT }, tokenRateLimitPerMinute: 0 },
    });
    gateways = [];
    for (const db of databases) gateways.push(await buildGateway(config, { db, logger: false }));
    const token = await gateways[0]!.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { ...basicAuth(TEST_BOOTSTRAP_CLIENT.id, TEST_BOOTSTRAP_CLIENT.secret), 'content-type': 'application/x-www-form-urlencoded' },
      payload: `grant_type=client_credentials&scope=manage_stores:${P}`,
    });
    headers = bearer((token.json() as { access_token: string }).access_token);
    // Two gateways (every route and GraphQL schema each) take a while to build on a busy host.
  }, 240_000);
  afterAll(async () => {
    for (const gateway of gateways ?? []) await gateway.app.close();
    for (const db of new Set(databases ?? [])) await db.close();
    await drop?.();
  });

  const get = async (gateway: Gateway, id: string): Promise<Store> => {
    const response = await gateway.app.inject({ method: 'GET', url: `/${P}/stores/${id}`, headers });
    expect(response.statusCode).toBe(200);
    return response.json() as Store;
  };

  it('a GET on one gateway answers at least the version the other just acknowledged', async () => {
    const stores: Store[] = [];
    for (let n = 0; n < CLIENTS; n++) {
      const created = await gateways[0]!.app.inject({ method: 'POST', url: `/${P}/stores`, headers, payload: { key: `s-${n}`, name: { en: 'v1' } } });
      expect(created.statusCode).toBe(201);
      stores.push(created.json() as Store);
    }
    let writing = true;
    // Background readers on both gateways: the writers' GETs share statements with theirs.
    const background = Array.from({ length: 8 }, async (_, reader) => {
      while (writing) await get(gateways[reader % 2]!, stores[reader % CLIENTS]!.id);
    });
    const clients = stores.map(async (store, client) => {
      let version = store.version;
      for (let write = 1; write <= WRITES_PER_CLIENT; write++) {
        const [writer, reader] = (client + write) % 2 === 0 ? [gateways[0]!, gateways[1]!] : [gateways[1]!, gateways[0]!];
        const name = `write ${write}`;
        const updated = await writer.app.inject({
          method: 'POST',
          url: `/${P}/stores/${store.id}`,
          headers,
          payload: { version, actions: [{ action: 'setName', name: { en: name } }] },
        });
        expect(updated.statusCode).toBe(200);
        version = (updated.json() as Store).version;
        const read = await get(reader, store.id);
        expect({ version: read.version, name: read.name.en }).toEqual({ version, name });
      }
    });
    try {
      await Promise.all(clients);
    } finally {
      writing = false;
      await Promise.all(background);
    }
  }, 120_000);
});
