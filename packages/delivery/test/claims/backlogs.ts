import { DocumentStore } from '@herald/store';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { DeliveryEngine } from '../../src/engine/engine.js';
import type { Lease } from '../../src/engine/leases.js';
import {
  createProject,
  createSqsSubscription,
  ManualClock,
  openTestDatabase,
  silentLogger,
  sqsPool,
  writeStores,
  type TestDatabase,
} from '../engine/support.js';

/** Subscriptions with due deliveries, routed through the engine (never contacted: claimed, not sent). */
export class Backlogs {
  readonly clock = new ManualClock();
  readonly documents: DocumentStore;

  constructor(readonly database: TestDatabase) {
    this.documents = new DocumentStore(database.db, this.clock);
  }

  engine(sendBatchSize: number): DeliveryEngine {
    return new DeliveryEngine(
      { db: this.database.db, logger: silentLogger, adapters: sqsPool('http://127.0.0.1:9'), clock: this.clock },
      { sendBatchSize, routeBatchSize: 1_000, sendTimeoutMs: 2_000, leaseMs: 60_000 },
    );
  }

  /** A project with one subscription to store changes and `due` deliveries for it; answers its id. */
  async subscriptionWithDue(projectKey: string, due: number): Promise<string> {
    await createProject(this.database.db, this.clock, projectKey);
    const target = { queueUrl: `http://127.0.0.1:9/000000000000/${projectKey}`, region: 'us-east-1' };
    const id = (await createSqsSubscription(this.documents, projectKey, target, { changes: [{ resourceTypeId: 'store' }] })).id;
    await writeStores(this.documents, projectKey, due);
    const engine = this.engine(100);
    while ((await engine.router.routeOnce()).events > 0);
    return id;
  }

  /** Claims everything due (leased for a minute): each test starts with nothing due. */
  async drain(): Promise<void> {
    const everything = this.engine(10_000);
    while ((await everything.sender.claim()) !== undefined);
  }
}

export function countBySubscription(lease: Lease | undefined): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const delivery of lease?.deliveries ?? []) counts[delivery.subscriptionId] = (counts[delivery.subscriptionId] ?? 0) + 1;
  return counts;
}

/**
 * A test file's backlogs on a private database (`serverUrl`: PGlite or PostgreSQL), opened before
 * its tests and closed after them. With `fresh`, each test starts with nothing due.
 */
export function backlogsFor(serverUrl: string, options: { fresh?: boolean } = {}): () => Backlogs {
  let backlogs: Backlogs | undefined;
  beforeAll(async () => {
    backlogs = new Backlogs(await openTestDatabase(serverUrl));
  });
  afterAll(async () => {
    await backlogs?.database.close();
  });
  if (options.fresh === true) {
    beforeEach(async () => {
      await backlogs?.drain();
    });
  }
  return () => backlogs as Backlogs;
}
