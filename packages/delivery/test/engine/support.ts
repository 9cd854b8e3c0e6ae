import { createServer, type Server, type Socket, connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Clock, Format, Subscription } from '@herald/model';
import { DocumentStore, openDatabase, ProjectStore, type Database } from '@herald/store';
import { createIsolatedDatabase, testDatabaseUrls } from '@herald/testkit';
import { pino, type Logger } from 'pino';
import { createDestinationEnvironment } from '../../src/destinations/environment.js';
import { DestinationPool } from '../../src/destinations/pool.js';
import type { ProjectEnvironment } from '../../src/engine/types.js';

/** A clock the test moves: retry windows of 48 hours pass in a millisecond. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date | string = '2026-03-01T00:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current += ms;
  }

  set(to: Date): void {
    this.current = to.getTime();
  }
}

export const HOUR = 3_600_000;

export const silentLogger: Logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** PGlite always; PostgreSQL when DATABASE_URL points at one. */
/** A destination pool whose SQS clients send to `endpoint` (fauxqs, or a relay in front of it). */
export function sqsPool(endpoint: string, sendMs = 2_000): DestinationPool {
  return new DestinationPool(createDestinationEnvironment({ endpoints: { sqs: endpoint }, timeouts: { sendMs }, logger: silentLogger }));
}

export function engineDatabaseUrls(): string[] {
  return testDatabaseUrls();
}

export function driverName(url: string): string {
  return url.startsWith('postgres') ? 'postgresql' : 'pglite';
}

export interface TestDatabase {
  db: Database;
  /** Its own URL (a private database on the server, or the PGlite URL). */
  url: string;
  close(): Promise<void>;
}

/** A private, migrated database (a fresh PGlite, or a new database on the PostgreSQL server). */
export async function openTestDatabase(serverUrl: string): Promise<TestDatabase> {
  const isolated = await createIsolatedDatabase(serverUrl);
  const db = await openDatabase(isolated.url);
  return {
    db,
    url: isolated.url,
    async close() {
      await db.close();
      await isolated.drop();
    },
  };
}

/** Creates the project through its store, with the §3.3 environment setting. */
export async function createProject(db: Database, clock: Clock, key: string, environment?: ProjectEnvironment): Promise<void> {
  const projects = new ProjectStore(db, clock);
  const project = await projects.ensure(key);
  if (environment !== undefined) await projects.update(key, project.version, (p) => ({ ...p, environment }));
}

export interface SqsTarget {
  queueUrl: string;
  region: string;
}

export interface SubscriptionDraft {
  key?: string;
  messages?: Subscription['messages'];
  changes?: Subscription['changes'];
  format?: Format;
}

/** What the gateway will do: the subscription is a 'subscription' document. */
export async function createSqsSubscription(documents: DocumentStore, projectKey: string, target: SqsTarget, draft: SubscriptionDraft): Promise<Subscription> {
  return documents.create<Subscription>({ projectKey }, 'subscription', {
    ...(draft.key === undefined ? {} : { key: draft.key }),
    destination: { type: 'SQS', queueUrl: target.queueUrl, accessKey: 'test', accessSecret: 'test', region: target.region },
    messages: draft.messages ?? [],
    changes: draft.changes ?? [],
    events: [],
    format: draft.format ?? { type: 'Platform' },
    status: 'Healthy',
  });
}

/** What a successful `changeDestination` stores: the subscription document points at another queue. */
export async function pointSubscriptionAt(documents: DocumentStore, projectKey: string, subscriptionId: string, queueUrl: string): Promise<void> {
  const current = await documents.get<Subscription>(projectKey, 'subscription', { id: subscriptionId });
  if (current === undefined) throw new Error(`subscription ${subscriptionId} missing`);
  await documents.update<Subscription>({ projectKey }, 'subscription', { id: subscriptionId }, current.version, (doc) => ({
    doc: { ...doc, destination: { ...doc.destination, queueUrl } as Subscription['destination'] },
  }));
}

/** A subscription's pending deliveries as the sender sees them: when due, failed attempts, lease holder. */
export async function pendingDeliveries(
  db: Database,
  projectKey: string,
  subscriptionId: string,
): Promise<{ dueAt: Date; attempts: number; leaseOwner: string | null }[]> {
  const rows = await db.query<{ due_at: Date | string; attempts: number; lease_owner: string | null }>(
    'SELECT due_at, attempts, lease_owner FROM deliveries WHERE project_key = $1 AND subscription_id = $2 ORDER BY id',
    [projectKey, subscriptionId],
  );
  return rows.rows.map((r) => ({ dueAt: new Date(r.due_at), attempts: r.attempts, leaseOwner: r.lease_owner }));
}

interface StoreDoc {
  id: string;
  version: number;
  key?: string;
  createdAt: string;
  lastModifiedAt: string;
  name: string;
}

/** Writes `count` store documents through the DocumentStore: each commits a change and a message. */
export async function writeStores(documents: DocumentStore, projectKey: string, count: number, concurrency = 1): Promise<StoreDoc[]> {
  const created: StoreDoc[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const index = next++;
      created.push(await documents.create<StoreDoc>({ projectKey }, 'store', { name: `store ${index}` }, (doc) => [{ type: 'StoreCreated', name: doc.name }]));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return created;
}

/**
 * A TCP relay in front of a peer: `down()` closes it (connections refused, open ones reset), `up()`
 * opens it again on the same port. A destination outage without restarting the peer.
 */
export class OutageRelay {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private port = 0;
  private silent = false;
  private readonly flushers = new Set<() => void>();

  private constructor(private readonly target: { host: string; port: number }) {}

  static async start(targetEndpoint: string): Promise<OutageRelay> {
    const url = new URL(targetEndpoint);
    const relay = new OutageRelay({ host: url.hostname, port: Number(url.port) });
    await relay.up();
    return relay;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async up(): Promise<void> {
    if (this.server !== undefined) return;
    const server = createServer((client) => this.bridge(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Relays one connection; while hanging, what the client sends is held back (requests hang). */
  private bridge(client: Socket): void {
    const upstream = connect(this.target.port, this.target.host);
    const held: Buffer[] = [];
    this.sockets.add(client);
    this.sockets.add(upstream);
    const flush = (): void => {
      for (const chunk of held.splice(0)) upstream.write(chunk);
    };
    this.flushers.add(flush);
    client.on('data', (chunk: Buffer) => {
      if (this.silent) held.push(chunk);
      else upstream.write(chunk);
    });
    upstream.pipe(client);
    const close = (): void => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
      this.flushers.delete(flush);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  }

  /** Nothing clients send is forwarded (a destination that hangs) until `answer()`. */
  hang(): void {
    this.silent = true;
  }

  /** Forwards again, including what was held back meanwhile. */
  answer(): void {
    this.silent = false;
    for (const flush of this.flushers) flush();
  }

  async down(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** `condition` polled on each macrotask until true: for states reached by background loops. */
export async function eventually(condition: () => Promise<boolean> | boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
