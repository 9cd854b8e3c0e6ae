/**
 * A counter per project that every change of its subscription routes raises, in the transaction
 * that changes them (`@herald/delivery` engine/route-starts.ts). Routers route with the routes they
 * cached; the claim statement takes a project's outbox rows only while the project's counter is
 * the one the cache was read at, so an event written after a subscription create returned is
 * never routed with routes older than that subscription (it was, within the cache's refresh time).
 * A project without a row has counter 0.
 */
export const routingEpochs = `
CREATE TABLE routing_epochs (
  project_key text   PRIMARY KEY,
  epoch       bigint NOT NULL
);
`;
