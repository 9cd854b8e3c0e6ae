/**
 * Benchmark server, run in its own process so the load generator does not share its event loop:
 *   tsx _serve.ts bare     → a bare Fastify route returning constant JSON (the ceiling)
 *   tsx _serve.ts herald   → Herald's gateway on DATABASE_URL with a bootstrap client
 * Prints the listening URL on stdout.
 */
import Fastify from 'fastify';
import { loadConfig, startHerald } from '../src/index.js';

const mode = process.argv[2];
if (mode === 'bare') {
  const app = Fastify({ logger: false });
  const body = { id: '3f2b9c1e-0000-4000-8000-000000000000', version: 1, key: 'store-1', name: { en: 'Store 1' }, languages: ['en'] };
  app.get('/x', async () => body);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${url}\n`);
} else {
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
  process.stdout.write(`${herald.url}\n`);
}
