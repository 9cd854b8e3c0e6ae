/**
 * Benchmark server, run in its own process so the load generator does not share its event loop:
 *   tsx _serve.ts bare     → a bare Fastify route returning constant JSON (the ceiling)
 *   tsx _serve.ts mock     → the in-memory mock (@labdigital/commercetools-mock) as its own HTTP
 *                            server runs it (strict, no authentication), project `bench`
 *   tsx _serve.ts herald   → Herald's gateway on DATABASE_URL with a bootstrap client
 * With BENCH_STORES set, mock and herald are first seeded with that many stores (_stores.ts).
 * Prints the listening URL on stdout once it is ready.
 */
import Fastify from 'fastify';
import { CommercetoolsMock } from '@labdigital/commercetools-mock';
import { benchStore, benchStoreCount, seedHeraldStores } from './_stores.js';

const mode = process.argv[2];
const seedCount = process.env.BENCH_STORES === undefined ? 0 : benchStoreCount();

async function serveBare(): Promise<string> {
  const app = Fastify({ logger: false });
  const body = { id: '3f2b9c1e-0000-4000-8000-000000000000', version: 1, key: 'store-1', name: { en: 'Store 1' }, languages: ['en'] };
  app.get('/x', async () => body);
  app.post('/x', async (_request, reply) => reply.code(201).send(body));
  app.post('/x/:id', async () => body);
  return app.listen({ port: 0, host: '127.0.0.1' });
}

async function serveMock(): Promise<string> {
  // The options of the mock's own server entry point (src/server.ts): strict, authentication off.
  const mock = new CommercetoolsMock({ defaultProjectKey: 'bench', silent: true, strict: true });
  const project = mock.project('bench');
  for (let n = 1; n <= seedCount; n++) await project.unsafeAdd('store', benchStore(n));
  return mock.app.listen({ port: 0, host: '127.0.0.1' });
}

async function serveHerald(): Promise<string> {
  // Imported here: the bare and mock servers load none of Herald.
  const { loadConfig, startHerald } = await import('../src/index.js');
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: process.env.DATABASE_URL,
    LOG_LEVEL: 'silent',
    HERALD_PROJECTS: 'bench',
    HERALD_BOOTSTRAP_CLIENT: 'bench-client:bench-secret-0123456789',
    HERALD_TOKEN_RATE_LIMIT: '0',
  });
  const herald = await startHerald(config);
  if (seedCount > 0) await seedHeraldStores(herald.db, seedCount);
  return herald.url;
}

const serve = { bare: serveBare, mock: serveMock, herald: serveHerald }[mode ?? ''];
if (serve === undefined) throw new Error(`usage: _serve.ts bare|mock|herald (got ${mode})`);
process.stdout.write(`${await serve()}\n`);
// Exit through Node (not the signal's default) so that `--cpu-prof` can write its profile.
process.once('SIGTERM', () => process.exit(0));
