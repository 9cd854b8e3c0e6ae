import type { DeliveryPayload } from '@herald/model';
import { DocumentStore, openDatabase, type Database } from '@herald/store';
import { createIsolatedDatabase, postgresAvailable, startPostgres, type RunningService } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSqsPeer, type SqsPeer } from '@herald/testkit';
import { DeliveryAdmin } from '../../src/engine/admin.js';
import { createProject, createSqsSubscription, eventually, ManualClock } from '../engine/support.js';
import { spawnWorker, type WorkerProcess } from './worker-process.js';

type SpyMessage = ReturnType<SqsPeer['fauxqs']['spy']['getAllMessages']>[number];

const EVENTS = 10_000;
const KILL_AFTER = 3_000;
const SEND_BATCH = 100;
const CONCURRENCY = 4;
/** The most a worker can have sent but not yet recorded: its leases in flight. */
const MAX_IN_FLIGHT = SEND_BATCH * CONCURRENCY;

const serverUrl = process.env.DATABASE_URL?.startsWith('postgres') === true ? process.env.DATABASE_URL : undefined;
const canRun = serverUrl !== undefined || postgresAvailable();
const title = canRun
  ? `kill -9 of one of two worker processes during ${EVENTS} events loses nothing`
  : `kill -9 of one of two worker processes (SKIPPED: no PostgreSQL — set DATABASE_URL or install initdb/pg_ctl)`;

interface StoreDoc {
  id: string;
  version: number;
  createdAt: string;
  lastModifiedAt: string;
  name: string;
}

describe('delivery workers crashing (PostgreSQL)', () => {
  let cluster: RunningService | undefined;
  let isolated: { url: string; drop(): Promise<void> } | undefined;
  let db: Database | undefined;
  let sqs: SqsPeer | undefined;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    if (!canRun) return;
    cluster = serverUrl === undefined ? await startPostgres() : undefined;
    isolated = await createIsolatedDatabase(serverUrl ?? cluster!.url);
    [db, sqs] = await Promise.all([openDatabase(isolated.url), startSqsPeer({ spyBufferSize: 3 * EVENTS })]);
  });

  afterAll(async () => {
    for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
    await db?.close();
    await sqs?.stop();
    await isolated?.drop();
    await cluster?.stop();
  });

  it.runIf(canRun)(title, { timeout: 180_000 }, async () => {
    const database = db!;
    const peer = sqs!;
    const clock = new ManualClock(new Date());
    const projectKey = 'crash';
    await createProject(database, clock, projectKey);
    const documents = new DocumentStore(database);
    const queueUrl = peer.createQueue('crash');
    const subscription = await createSqsSubscription(
      documents,
      projectKey,
      { queueUrl, region: peer.region },
      {
        changes: [{ resourceTypeId: 'store' }],
      },
    );

    const env = {
      DATABASE_URL: isolated!.url,
      HERALD_SQS_ENDPOINT: peer.endpoint,
      HERALD_DELIVERY_SEND_BATCH: String(SEND_BATCH),
      HERALD_DELIVERY_CONCURRENCY: String(CONCURRENCY),
      // Short enough that the test does not wait long for the takeover, long enough that a send
      // slowed down by a busy machine does not time out (an ambiguous timeout may duplicate too).
      HERALD_DELIVERY_LEASE_MS: '6000',
      HERALD_DELIVERY_SEND_TIMEOUT_MS: '5000',
    };
    // A backlog, so that both workers have leases in flight when one of them dies.
    const started = performance.now();
    const written = await writeStores(documents, projectKey, EVENTS, 8);
    const writeSeconds = (performance.now() - started) / 1000;
    const victim = spawnWorker({ ...env, HERALD_DELIVERY_WORKER_ID: 'victim' });
    const survivor = spawnWorker({ ...env, HERALD_DELIVERY_WORKER_ID: 'survivor' });
    workers.push(victim, survivor);
    await Promise.all([victim.ready, survivor.ready]);

    const isOurs = (message: SpyMessage): message is SpyMessage & { service: 'sqs'; body: string } =>
      message.service === 'sqs' && message.queueName === 'crash' && message.status === 'published';
    const resourceId = (message: { body: string }): string => (JSON.parse(message.body) as DeliveryPayload).resource.id;

    await peer.fauxqs.spy.waitForMessages(isOurs, { count: KILL_AFTER, timeout: 120_000 });
    victim.child.kill('SIGKILL');
    expect(await victim.exited).toBe('SIGKILL');
    const beforeKill = peer.fauxqs.spy.getAllMessages().filter(isOurs);
    // What the victim held when it died (its leases last 6 s, so nobody has taken them yet).
    const held = await database.query<{ id: string }>(`SELECT payload->'resource'->>'id' AS id FROM deliveries WHERE lease_owner = 'victim'`);
    const victimHeld = new Set(held.rows.map((row) => row.id));
    expect(victimHeld.size).toBeGreaterThan(0);
    expect(victimHeld.size).toBeLessThanOrEqual(MAX_IN_FLIGHT);

    // Every event arrives at least once: the survivor takes over the victim's leases when they expire.
    const distinct = new Set<string>();
    await peer.fauxqs.spy.waitForMessage(
      (message) => {
        if (isOurs(message)) distinct.add(resourceId(message));
        return distinct.size >= EVENTS;
      },
      undefined,
      120_000,
    );
    const arrivals = peer.fauxqs.spy.getAllMessages().filter(isOurs);
    const arrivedIds = new Set(arrivals.map(resourceId));
    expect(arrivedIds.size).toBe(EVENTS);
    expect(written.every((store) => arrivedIds.has(store.id))).toBe(true);
    const duplicates = arrivals.length - arrivedIds.size;
    // Duplicates only from the killed worker's in-flight leases.
    const counts = new Map<string, number>();
    for (const arrival of arrivals) counts.set(resourceId(arrival), (counts.get(resourceId(arrival)) ?? 0) + 1);
    const duplicated = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
    // The survivor's own metrics: no timeouts muddied the picture (every duplicate is the crash's).
    const metrics = await (await fetch(`http://127.0.0.1:${(await survivor.ready).port}/metrics`)).text();
    // (Series per subscription, every outcome exported from 0: none of the temporary ones above it.)
    expect(metrics).toMatch(/herald_delivery_attempts_total\{[^}]*destination_type="SQS",outcome="delivered"\} [1-9]\d*/);
    expect(metrics).not.toMatch(/outcome="temporary"\} [1-9]/);
    expect((await fetch(`http://127.0.0.1:${(await survivor.ready).port}/healthz`)).status).toBe(200);
    expect(duplicated.filter((id) => !victimHeld.has(id))).toEqual([]);
    expect(beforeKill.length).toBeGreaterThanOrEqual(KILL_AFTER);

    // Nothing left behind: no pending delivery, no outbox row, nothing dropped.
    const admin = new DeliveryAdmin({ db: database, clock });
    await eventually(async () => (await admin.deliveryStatus(projectKey, subscription.id)).pendingCount === 0, 30_000, 'no pending');
    const outbox = await database.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox');
    expect(outbox.rows[0]?.n).toBe(0);
    expect((await admin.listDropped(projectKey, subscription.id)).total).toBe(0);

    // The survivor shuts down gracefully on SIGTERM.
    survivor.child.kill('SIGTERM');
    expect(await survivor.exited).toBe(0);
    console.info(
      `crash test: ${EVENTS} events written in ${writeSeconds.toFixed(1)} s; victim killed after ${beforeKill.length} arrivals ` +
        `holding ${victimHeld.size} leased deliveries; ${arrivals.length} arrivals, ${duplicates} duplicates`,
    );
  });
});

async function writeStores(documents: DocumentStore, projectKey: string, count: number, concurrency: number): Promise<StoreDoc[]> {
  const created: StoreDoc[] = [];
  let next = 0;
  const writer = async (): Promise<void> => {
    while (next < count) {
      next += 1;
      created.push(await documents.create<StoreDoc>({ projectKey }, 'store', { name: `store ${next}` }));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, writer));
  return created;
}
