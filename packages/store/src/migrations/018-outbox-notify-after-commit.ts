/**
 * Migration 003's trigger called pg_notify inside every writing transaction. PostgreSQL serialises
 * the commits of notifying transactions under one lock held through their WAL flush, so durable
 * writes could not share a flush: 32 concurrent writers committed 170–220 times a second with it and
 * 3,200–3,400 without (pgbench on this machine). The writer now notifies after its commit, once per
 * burst (outbox/commit-bell.ts).
 */
export const outboxNotifyAfterCommit = `
DROP TRIGGER IF EXISTS outbox_notify ON outbox;
DROP FUNCTION IF EXISTS herald_outbox_notify();
`;
