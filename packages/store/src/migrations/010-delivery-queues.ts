/**
 * Where senders look for work (`@herald/delivery` engine/leases.ts). Claiming used to walk every
 * subscription with pending deliveries, one index probe each, also those whose deliveries were all
 * waiting for a retry hours away: with thousands of such subscriptions (a destination used by many
 * of them down for a while) every idle poll of every sender cost tens of milliseconds of database
 * time. A claim now reads only the subscriptions whose `wake_at` has come.
 *
 * `wake_at` is a lower bound: no pending delivery of the subscription is due before it. The
 * triggers below keep it one — a delivery inserted, or made due earlier (a retry scheduled, a lease
 * given back), lowers it, whatever code path writes it (also a worker of an older release during a
 * rolling upgrade). Nothing here raises it: each claim moves the rows it reads with nothing due to
 * their subscription's next due time, or removes them when nothing is pending (CLAIM_DUE_SQL).
 * `revision` counts every write, also an insert that lowers nothing (due after `wake_at`), so that
 * a claim can tell that a delivery it cannot see (committed after its snapshot) came after it
 * looked, and leaves the row alone.
 *
 * Transition tables cannot be combined with a column list (`UPDATE OF due_at`): the update trigger
 * sees every update of deliveries and keeps the rows whose `due_at` went down. Rows are written in
 * key order, so two writers never wait for each other in a cycle (claims never wait: they skip the
 * rows another transaction holds). A writer holds its subscriptions' rows until it commits, so the
 * writers of one subscription (the routers of several workers) commit one after another.
 *
 * On upgrade the rows are filled from the pending deliveries after the triggers exist: creating a
 * trigger waits for the transactions writing deliveries and holds off new ones until this commits,
 * so no delivery is written between the fill and the triggers.
 */
export const deliveryQueues = `
CREATE TABLE delivery_queues (
  project_key     text        NOT NULL,
  subscription_id text        NOT NULL,
  wake_at         timestamptz NOT NULL,
  revision        bigint      NOT NULL DEFAULT 0,
  PRIMARY KEY (project_key, subscription_id)
);
CREATE INDEX delivery_queues_wake_idx ON delivery_queues (wake_at);

CREATE FUNCTION herald_lower_queues_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO delivery_queues AS q (project_key, subscription_id, wake_at)
  SELECT project_key, subscription_id, min(due_at) FROM added
  GROUP BY project_key, subscription_id ORDER BY project_key, subscription_id
  ON CONFLICT (project_key, subscription_id)
  DO UPDATE SET wake_at = least(q.wake_at, excluded.wake_at), revision = q.revision + 1;
  RETURN NULL;
END
$$;
CREATE TRIGGER deliveries_lower_queues_on_insert AFTER INSERT ON deliveries
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION herald_lower_queues_on_insert();

CREATE FUNCTION herald_lower_queues_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO delivery_queues AS q (project_key, subscription_id, wake_at)
  SELECT a.project_key, a.subscription_id, min(a.due_at) FROM after_update a JOIN before_update b ON b.id = a.id
  WHERE a.due_at < b.due_at
  GROUP BY a.project_key, a.subscription_id ORDER BY a.project_key, a.subscription_id
  ON CONFLICT (project_key, subscription_id)
  DO UPDATE SET wake_at = least(q.wake_at, excluded.wake_at), revision = q.revision + 1;
  RETURN NULL;
END
$$;
CREATE TRIGGER deliveries_lower_queues_on_update AFTER UPDATE ON deliveries
  REFERENCING OLD TABLE AS before_update NEW TABLE AS after_update
  FOR EACH STATEMENT EXECUTE FUNCTION herald_lower_queues_on_update();

INSERT INTO delivery_queues (project_key, subscription_id, wake_at)
SELECT project_key, subscription_id, min(due_at) FROM deliveries GROUP BY project_key, subscription_id;
`;
