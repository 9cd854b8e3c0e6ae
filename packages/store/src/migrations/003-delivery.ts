/**
 * The delivery engine's tables (`@herald/delivery` engine/). The router turns outbox rows into one
 * pending delivery per (subscription, event); senders lease due deliveries, delete what the
 * destination acknowledged and reschedule or drop the rest. Times in `due_at`, `lease_expires_at`,
 * `first_failure_at`, `since` and `dropped_at` come from the engine's injected clock, never from
 * the database's `now()` (retry windows must be testable by moving a clock).
 */
export const deliverySchema = `
-- One row per (subscription, event) not yet acknowledged by the destination. The payload is the
-- outbox payload, copied verbatim inside the database (it never round-trips through the router).
-- While a worker holds a delivery, lease_owner names it and due_at = lease_expires_at: a crashed
-- worker's deliveries become due again when the lease expires, with no separate sweep.
CREATE TABLE deliveries (
  id               bigserial   PRIMARY KEY,
  project_key      text        NOT NULL,
  subscription_id  text        NOT NULL,
  event_id         text        NOT NULL,
  outbox_seq       bigint      NOT NULL,
  payload          jsonb       NOT NULL,
  committed_at     timestamptz NOT NULL,
  created_at       timestamptz NOT NULL,
  due_at           timestamptz NOT NULL,
  attempts         integer     NOT NULL DEFAULT 0,
  first_failure_at timestamptz,
  last_error_class text,
  last_error_code  text,
  last_error       text,
  lease_owner      text,
  lease_expires_at timestamptz,
  UNIQUE (project_key, subscription_id, event_id)
);
-- Per-subscription reads (status, drops on stop/delete) use the unique index's prefix; no third
-- index: every delivery is inserted, leased (a non-HOT update) and deleted, each index costs thrice.
CREATE INDEX deliveries_due_idx ON deliveries (due_at, id);

-- §3.3 health, kept apart from the subscription document so that a status change never bumps
-- the subscription's version (users' updates must not 409 because of a background process).
-- No row = Healthy.
CREATE TABLE subscription_health (
  project_key      text        NOT NULL,
  subscription_id  text        NOT NULL,
  status           text        NOT NULL CHECK (status IN
                     ('Healthy', 'ConfigurationError', 'ConfigurationErrorDeliveryStopped', 'TemporaryError')),
  since            timestamptz NOT NULL,
  last_error_class text,
  last_error_code  text,
  last_error       text,
  last_error_at    timestamptz,
  updated_at       timestamptz NOT NULL,
  PRIMARY KEY (project_key, subscription_id)
);

-- Deliveries given up on, with the reason: never dropped silently. Kept 14 days, listable and
-- replayable (moved back into deliveries).
CREATE TABLE dropped_deliveries (
  id               bigserial   PRIMARY KEY,
  project_key      text        NOT NULL,
  subscription_id  text        NOT NULL,
  event_id         text        NOT NULL,
  outbox_seq       bigint      NOT NULL,
  payload          jsonb       NOT NULL,
  committed_at     timestamptz NOT NULL,
  attempts         integer     NOT NULL,
  first_failure_at timestamptz,
  reason           text        NOT NULL,
  error_class      text,
  error_code       text,
  error_message    text,
  dropped_at       timestamptz NOT NULL
);
CREATE INDEX dropped_deliveries_subscription_idx ON dropped_deliveries (project_key, subscription_id, id);
CREATE INDEX dropped_deliveries_age_idx ON dropped_deliveries (dropped_at);

-- Wakes routers that LISTEN on PostgreSQL as soon as a write commits (notifications are sent at
-- commit, and one per channel and payload per transaction). Polling remains the fallback.
CREATE FUNCTION herald_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('herald_outbox', '');
  RETURN NULL;
END
$$;
CREATE TRIGGER outbox_notify AFTER INSERT ON outbox FOR EACH STATEMENT EXECUTE FUNCTION herald_outbox_notify();
`;
