/**
 * Where in the outbox each routing key of a subscription starts (`@herald/delivery`
 * engine/route-starts.ts). The router matches an event at routing time, which after a worker
 * outage can be hours after the event was written: without a start, a subscription created (or a
 * filter entry added) meanwhile received events written before it existed.
 *
 * `after_seq` is the outbox position when the key was added: the key routes only events with a
 * larger `seq`. `message_type` NULL is "every message of the resource type" (and every change).
 * A subscription without rows (created before this migration) routes its keys from the start.
 * Rows are rewritten as a whole, in the transaction that writes the subscription document.
 */
export const subscriptionRoutes = `
CREATE TABLE subscription_routes (
  project_key      text   NOT NULL,
  subscription_id  text   NOT NULL,
  kind             text   NOT NULL CHECK (kind IN ('message', 'change')),
  resource_type_id text   NOT NULL,
  message_type     text,
  after_seq        bigint NOT NULL
);
CREATE INDEX subscription_routes_subscription_idx ON subscription_routes (project_key, subscription_id);
`;
