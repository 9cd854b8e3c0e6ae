/**
 * §6.2 CloudEvents `dataref` is the URI a message can be retrieved from, "if messages are enabled".
 * Whether a message was kept for the Messages API is known only by the write that produced it (the
 * project's setting may change before the event is delivered), so it is recorded with the event and
 * travels with it: outbox → pending delivery → dropped and replayed.
 * False only for a message the Messages API does not have; true for changes, which have no
 * `dataref`. The default keeps rows written before this migration as they were delivered, and adding
 * a column with a constant default rewrites no table (PostgreSQL 11+).
 */
export const messageStored = `
ALTER TABLE outbox ADD COLUMN message_stored boolean NOT NULL DEFAULT true;
ALTER TABLE deliveries ADD COLUMN message_stored boolean NOT NULL DEFAULT true;
ALTER TABLE dropped_deliveries ADD COLUMN message_stored boolean NOT NULL DEFAULT true;
`;
