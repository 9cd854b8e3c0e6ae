/**
 * Where each routing key of a subscription starts (`@herald/delivery` engine/route-starts.ts). The
 * router matches an event when it routes it, which after a worker outage can be hours after the
 * event was written: without a start, a subscription created (or a filter entry added) meanwhile
 * received events committed before it existed.
 *
 * A start is the transaction snapshot of the write that added the key: the key routes the outbox
 * rows whose writing transaction that snapshot does not see — committed later, or still running
 * then. Commit order, not `seq` order: a row takes its `seq` when written, and commits whenever its
 * transaction does, so an event with a smaller `seq` can commit after the subscription did (a start
 * by `seq` made it miss such an event forever). xid8 never wraps around.
 *
 * `message_type` NULL is "every message of the resource type" (and every change). A subscription
 * without rows (created before this migration) routes its keys from the start; outbox rows written
 * before this migration have no `xact_id` and reach only those. Rows are rewritten as a whole, in
 * the transaction that writes the subscription document.
 */
export const subscriptionRoutes = `
ALTER TABLE outbox ADD COLUMN xact_id xid8;
ALTER TABLE outbox ALTER COLUMN xact_id SET DEFAULT pg_current_xact_id();

CREATE TABLE subscription_routes (
  project_key      text        NOT NULL,
  subscription_id  text        NOT NULL,
  kind             text        NOT NULL CHECK (kind IN ('message', 'change')),
  resource_type_id text        NOT NULL,
  message_type     text,
  start_snapshot   pg_snapshot NOT NULL
);
CREATE INDEX subscription_routes_subscription_idx ON subscription_routes (project_key, subscription_id);
`;
