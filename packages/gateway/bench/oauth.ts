/**
 * OAuth benchmarks: tokens issued per second, and the per-request cost of token validation
 * (an authenticated route against a public one, in one run). Target: < 0.2 ms added per request,
 * which needs the in-memory cache of validated tokens (auth/oauth-authenticator.ts).
 * In-memory PGlite, or a fresh database on the PostgreSQL of DATABASE_URL. Prints markdown.
 *
 *   npx tsx packages/gateway/bench/oauth.ts
 */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';

// Workspace packages resolve to their sources only under this export condition (as in tests).
const CONDITION = '--conditions=@herald/source';
if (!process.execArgv.includes(CONDITION) && !(process.env.NODE_OPTIONS ?? '').includes(CONDITION)) {
  const child = spawnSync(process.execPath, [...process.execArgv, CONDITION, ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(child.status ?? 1);
}

const { plainSecretBox } = await import('@herald/delivery');
const { systemClock } = await import('@herald/model');
const { DocumentStore, openDatabase, ProjectStore } = await import('@herald/store');
const { createIsolatedDatabase } = await import('@herald/testkit');
const { buildGateway } = await import('../src/app.js');
const { defaultConfig } = await import('../src/config/config.js');
const { createOAuth } = await import('../src/oauth/index.js');
type FastifyRequest = import('fastify').FastifyRequest;

const PROJECT = 'bench';
const BOOTSTRAP = { id: 'bench-bootstrap', secret: 'bench-bootstrap-secret' };
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const ROUNDS = 5;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

const server = process.env.DATABASE_URL;
const database = await createIsolatedDatabase(server?.startsWith('postgres') === true ? server : 'pglite://memory');
const db = await openDatabase(database.url);
await new ProjectStore(db).ensure(PROJECT);
const settings = { ...defaultConfig().oauth, bootstrapClient: BOOTSTRAP, tokenRateLimitPerMinute: 0 };
const gateway = await buildGateway(defaultConfig({ projects: [PROJECT], oauth: settings }), { db, logger: false });
const uncached = await buildGateway(defaultConfig({ projects: [PROJECT], oauth: { ...settings, tokenCacheSeconds: 0 } }), { db, logger: false });
const app = gateway.app;

async function postToken(body: string, authorization: string, url = '/oauth/token'): Promise<{ access_token: string }> {
  const response = await app.inject({ method: 'POST', url, headers: { authorization, ...FORM }, payload: body });
  if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
  return response.json() as { access_token: string };
}

// An API client with a generated (SHA-256-hashed) secret, as applications use.
const admin = await postToken(`grant_type=client_credentials&scope=manage_project:${PROJECT}`, basic(BOOTSTRAP.id, BOOTSTRAP.secret));
const created = await app.inject({
  method: 'POST',
  url: `/${PROJECT}/api-clients`,
  headers: { authorization: `Bearer ${admin.access_token}` },
  payload: { name: 'bench', scope: `view_project_settings:${PROJECT} manage_customers:${PROJECT} manage_my_profile:${PROJECT}` },
});
const client = created.json() as { id: string; secret: string };
const clientAuth = basic(client.id, client.secret);
await app.inject({
  method: 'POST',
  url: `/${PROJECT}/customers`,
  headers: { authorization: `Bearer ${admin.access_token}` },
  payload: { email: 'bench@example.com', password: 'bench-password' },
});

/** Runs `count` operations with `concurrency` in flight; returns operations per second. */
async function rate(count: number, concurrency: number, operation: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await operation(next++);
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

/** Median over rounds of the mean time per request, in microseconds. */
async function perRequest(count: number, request: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < count; i++) await request();
  return ((performance.now() - started) * 1000) / count;
}

const clientCredentials = `grant_type=client_credentials&scope=view_project_settings:${PROJECT}`;
await rate(200, 1, () => postToken(clientCredentials, clientAuth)); // warm-up
const issuedSequential = median(await repeat(() => rate(1000, 1, () => postToken(clientCredentials, clientAuth))));
const issuedConcurrent = median(await repeat(() => rate(1000, 16, () => postToken(clientCredentials, clientAuth))));
const password = `grant_type=password&username=bench@example.com&password=bench-password&scope=manage_my_profile:${PROJECT}`;
const issuedPassword = await rate(40, 2, () => postToken(password, clientAuth, `/oauth/${PROJECT}/customers/token`));

async function repeat(run: () => Promise<number>): Promise<number[]> {
  const results: number[] = [];
  for (let round = 0; round < ROUNDS; round++) results.push(await run());
  return results;
}

// Validation cost: the same process, rounds interleaved so that drift hits all cases alike.
const token = (await postToken(clientCredentials, clientAuth)).access_token;
const bearer = { authorization: `Bearer ${token}` };
const publicRoute = () => app.inject({ method: 'GET', url: '/healthz' });
const authenticated = () => app.inject({ method: 'GET', url: `/${PROJECT}`, headers: bearer });
const authenticatedUncached = () => uncached.app.inject({ method: 'GET', url: `/${PROJECT}`, headers: bearer });
for (const warm of [publicRoute, authenticated, authenticatedUncached]) await perRequest(500, warm);
const samples = { public: [] as number[], cached: [] as number[], uncached: [] as number[] };
for (let round = 0; round < ROUNDS; round++) {
  samples.public.push(await perRequest(2000, publicRoute));
  samples.cached.push(await perRequest(2000, authenticated));
  samples.uncached.push(await perRequest(500, authenticatedUncached));
}

// The authenticator alone, as the preHandler hook calls it (cache hit), without HTTP around it.
const oauth = createOAuth({ db, clock: systemClock, documents: new DocumentStore(db), projects: new ProjectStore(db), settings, secrets: plainSecretBox });
const fakeRequest = { headers: bearer, query: {}, id: 'bench-correlation-id' } as unknown as FastifyRequest;
const requirement = { anyOf: ['view_project_settings'] };
await oauth.authenticator.authenticate(fakeRequest, PROJECT, requirement);
const direct = median(
  await repeat(async () => {
    const count = 100_000;
    const started = performance.now();
    for (let i = 0; i < count; i++) await oauth.authenticator.authenticate(fakeRequest, PROJECT, requirement);
    return ((performance.now() - started) * 1000) / count;
  }),
);

const added = median(samples.cached) - median(samples.public);
const fmt = (value: number, unit: string) => `${value.toLocaleString('en-US', { maximumFractionDigits: value < 10 ? 2 : 0 })} ${unit}`;
const rows: Array<[string, string]> = [
  ['Tokens issued (client credentials), 1 in flight', fmt(issuedSequential, 'tokens/s')],
  ['Tokens issued (client credentials), 16 in flight', fmt(issuedConcurrent, 'tokens/s')],
  ['Tokens issued (password flow, scrypt), 2 in flight', fmt(issuedPassword, 'tokens/s')],
  ['GET /healthz (public), per request', fmt(median(samples.public), 'µs')],
  ['GET /{projectKey} with a bearer token, validated from memory', fmt(median(samples.cached), 'µs')],
  ['GET /{projectKey} with a bearer token, cache off (database lookup)', fmt(median(samples.uncached), 'µs')],
  ['Added per request by token validation (authenticated − public)', `${fmt(added, 'µs')} (target < 200 µs)`],
  ['authenticate() alone, cache hit', fmt(direct, 'µs')],
];

console.log(`## OAuth (packages/gateway/bench/oauth.ts)

Database: ${db.driver}. Requests through Fastify \`inject\` (no sockets), medians of ${ROUNDS} rounds.
The authenticated route also loads the project (from the project cache), so "added" is an upper bound
for validation; "authenticate() alone" is the validation itself.

| Measure | Result |
|---|---|
${rows.map(([name, value]) => `| ${name} | ${value} |`).join('\n')}
`);

await gateway.app.close();
await uncached.app.close();
await db.close();
await database.drop();
