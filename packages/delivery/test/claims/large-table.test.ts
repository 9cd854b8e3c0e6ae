import { describe, expect, it } from 'vitest';
import { claimDue } from '../../src/engine/leases.js';
import { engineDatabaseUrls } from '../engine/support.js';
import { backlogsFor } from './backlogs.js';

/**
 * A claim reads a few index entries per subscription, whatever the table holds. Once the table has
 * statistics, the planner estimates a subscription's rows as table rows / distinct subscriptions;
 * with one big backlog and a few subscriptions that is hundreds of thousands, and counting a
 * subscription's due deliveries "up to 100" without an order looked cheapest as a sequential scan —
 * which, for a subscription with fewer than 100 due (the quiet ones the fair claim is for), read the
 * whole table, once per such subscription and claim.
 *
 * The backlog rows are inserted with one statement (200,000 routed through the API would take
 * minutes); the subscriptions and their other deliveries are real.
 */
describe.each(engineDatabaseUrls())('the claim on a large deliveries table (%s)', (serverUrl) => {
  const backlogs = backlogsFor(serverUrl);

  it('reads a few rows per subscription, not the whole table, next to a 200,000-delivery backlog', { timeout: 120_000 }, async () => {
    const db = backlogs().database.db;
    const big = await backlogs().subscriptionWithDue('plan-big', 1);
    // A destination down for a while: its subscription's backlog, all due.
    await db.query(
      `INSERT INTO deliveries (project_key, subscription_id, event_id, outbox_seq, payload, message_stored, committed_at, created_at, due_at)
       SELECT project_key, subscription_id, 'backlog-' || g, outbox_seq, payload, message_stored, committed_at, created_at, due_at
       FROM deliveries, generate_series(1, 200000) g WHERE project_key = 'plan-big' AND subscription_id = $1`,
      [big],
    );
    for (let index = 0; index < 3; index++) await backlogs().subscriptionWithDue(`plan-quiet-${index}`, 2);
    // What autovacuum does on PostgreSQL after this many inserts.
    await db.query('ANALYZE deliveries');

    const now = backlogs().clock.now();
    const { lease, read } = await db.transaction(async (tx) => {
      const lease = await claimDue(tx, 'worker-plan', now, new Date(now.getTime() + 60_000), 100);
      const stats = await tx.query<{ seq_tup_read: string | number | null }>(`SELECT seq_tup_read FROM pg_stat_xact_user_tables WHERE relname = 'deliveries'`);
      return { lease, read: Number(stats.rows[0]?.seq_tup_read ?? 0) };
    });
    expect(lease?.deliveries).toHaveLength(100);
    // Unordered counts read about 600,000 (three full scans of the table, one per quiet subscription).
    expect(read).toBeLessThan(10_000);
  });
});
