/**
 * What a sender's claim costs while many subscriptions have pending deliveries that all wait for a
 * retry later (a destination used by many subscriptions down for a while): every idle poll of
 * every worker claims (`HERALD_DELIVERY_SENDER_POLL_MS`, 100 ms by default), so this is paid
 * continuously. Median of 50 claims that find nothing due, one connection, nothing else running.
 *
 *   npx tsx packages/delivery/bench/idle-claims.ts
 *
 * Uses DATABASE_URL when it points at PostgreSQL, else starts a throwaway cluster; PGlite rows too.
 */
import { runWithSourceConditions } from './support/with-source-conditions.js';

await runWithSourceConditions(async () => {
  const { DocumentStore, openDatabase } = await import('@herald/store');
  const { createIsolatedDatabase, startPostgres } = await import('@herald/testkit');
  const { claimDue } = await import('../src/engine/leases.js');
  const { DeliveryEngine } = await import('../src/engine/engine.js');
  const { createProject, createSqsSubscription, ManualClock, silentLogger, sqsPool, writeStores } = await import('../test/engine/support.js');
  const { median, printTable } = await import('./support/table.js');

  const WAITING = [0, 1_000, 6_000];
  const CLAIMS = 50;

  /** Median ms of an idle claim with `waiting` subscriptions whose one delivery is due in an hour. */
  async function idleClaims(url: string): Promise<number[]> {
    const db = await openDatabase(url);
    try {
      const clock = new ManualClock();
      const documents = new DocumentStore(db, clock);
      await createProject(db, clock, 'idle');
      const target = { queueUrl: 'http://127.0.0.1:9/000000000000/idle', region: 'us-east-1' };
      const template = (await createSqsSubscription(documents, 'idle', target, { changes: [{ resourceTypeId: 'store' }] })).id;
      await writeStores(documents, 'idle', 1);
      const engine = new DeliveryEngine(
        { db, logger: silentLogger, adapters: sqsPool('http://127.0.0.1:9'), clock },
        { sendBatchSize: 100, routeBatchSize: 100, sendTimeoutMs: 2_000, leaseMs: 60_000 },
      );
      while ((await engine.router.routeOnce()).events > 0);
      const medians: number[] = [];
      let inserted = 0;
      for (const waiting of WAITING) {
        await db.query(
          `INSERT INTO deliveries (project_key, subscription_id, event_id, outbox_seq, payload, message_stored, committed_at, created_at, due_at, attempts)
           SELECT project_key, 'waiting-' || g, event_id, outbox_seq, payload, message_stored, committed_at, created_at, due_at + interval '1 hour', 3
           FROM deliveries, generate_series($2::int + 1, $3::int) g WHERE subscription_id = $1`,
          [template, inserted, waiting],
        );
        inserted = Math.max(inserted, waiting);
        await db.query('ANALYZE deliveries');
        const times: number[] = [];
        for (let claim = 0; claim < CLAIMS + 5; claim++) {
          const now = clock.now();
          const started = performance.now();
          await claimDue(db, 'bench', now, new Date(now.getTime() + 60_000), 100);
          if (claim >= 5) times.push(performance.now() - started);
        }
        medians.push(median(times));
      }
      return medians;
    } finally {
      await db.close();
    }
  }

  const serverUrl = process.env.DATABASE_URL?.startsWith('postgres') === true ? process.env.DATABASE_URL : undefined;
  const cluster = serverUrl === undefined ? await startPostgres() : undefined;
  const isolated = await createIsolatedDatabase(serverUrl ?? cluster!.url);
  try {
    const postgres = await idleClaims(isolated.url);
    const pglite = await idleClaims('pglite://memory');
    printTable(
      'An idle claim next to subscriptions whose deliveries all wait for a retry (median of 50)',
      ['subscriptions waiting', 'PostgreSQL', 'PGlite'],
      WAITING.map((waiting, index) => [waiting.toLocaleString('en-US'), `${postgres[index]!.toFixed(2)} ms`, `${pglite[index]!.toFixed(2)} ms`]),
    );
  } finally {
    await isolated.drop();
    await cluster?.stop();
  }
});
