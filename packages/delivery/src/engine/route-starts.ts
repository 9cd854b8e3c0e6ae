import type { Subscription } from '@herald/model';
import type { Queryable } from '@herald/store';
import { routingKeys, type RoutingKey } from './matching.js';

/**
 * A routing key with where it starts: the transaction snapshot (`pg_snapshot` text,
 * `xmin:xmax:xip,…`) of the write that added it (`FROM_THE_START` for subscriptions written before
 * starts were kept). It routes the events whose transactions that snapshot does not
 * see: committed after it was taken, or still running then. The router matches an event when it
 * routes it, which after a worker outage can be hours after the event was written; the start keeps a
 * subscription (or a filter entry) from receiving events committed before it existed, and never
 * from missing one committed after (migration 008 says why not the outbox `seq`).
 */
export interface RouteStart extends RoutingKey {
  startSnapshot: string;
}

/** A snapshot that sees no transaction: every event comes after it (a key routed from the start). */
export const FROM_THE_START = '1:1:';

/** Whether start `a` is earlier than `b`: it sees fewer transactions (snapshots of one subscription's writes are taken in order). */
function earlier(a: string, b: string): boolean {
  const first = snapshotParts(a);
  const second = snapshotParts(b);
  return first.xmax < second.xmax || (first.xmax === second.xmax && first.xmin < second.xmin);
}

/** `xmin:xmax:xip,xip,…` (pg_snapshot's text form) taken apart. */
function snapshotParts(snapshot: string): { xmin: bigint; xmax: bigint; running: bigint[] } {
  const [xmin = '', xmax = '', running = ''] = snapshot.split(':');
  return { xmin: BigInt(xmin), xmax: BigInt(xmax), running: running === '' ? [] : running.split(',').map(BigInt) };
}

type SubscriptionFilter = Pick<Subscription, 'messages' | 'changes'>;

/** Whether every event `outer` matches is matched by `inner`'s key as well, i.e. `outer` covers `inner`. */
function covers(outer: RoutingKey, inner: RoutingKey): boolean {
  return outer.kind === inner.kind && outer.resourceTypeId === inner.resourceTypeId && (outer.messageType === null || outer.messageType === inner.messageType);
}

function sameKey(a: RoutingKey, b: RoutingKey): boolean {
  return a.kind === b.kind && a.resourceTypeId === b.resourceTypeId && a.messageType === b.messageType;
}

/**
 * The routes of a filter (`keys`), each key starting where the earliest of the `recorded` routes
 * that cover it starts, or at `uncovered` when none does; recorded routes the filter still covers
 * and that start earlier than their cover are kept (widening one type to "all messages" keeps that
 * type's earlier events, without taking the other types' earlier events along). Recorded routes
 * the filter no longer covers are gone.
 */
function routesOver(recorded: readonly RouteStart[], keys: readonly RoutingKey[], uncovered: string): RouteStart[] {
  const routes: RouteStart[] = [];
  for (const key of keys) {
    if (routes.some((route) => sameKey(route, key))) continue;
    let startSnapshot: string | undefined;
    for (const route of recorded) {
      if (covers(route, key) && (startSnapshot === undefined || earlier(route.startSnapshot, startSnapshot))) startSnapshot = route.startSnapshot;
    }
    routes.push({ kind: key.kind, resourceTypeId: key.resourceTypeId, messageType: key.messageType, startSnapshot: startSnapshot ?? uncovered });
  }
  for (const route of recorded) {
    if (routes.some((kept) => sameKey(kept, route))) continue;
    if (routes.some((kept) => covers(kept, route) && earlier(route.startSnapshot, kept.startSnapshot))) routes.push(route);
  }
  return routes;
}

/**
 * The routes of a subscription whose filter becomes `keys`, given its routes so far and the snapshot
 * `now` of this write. An event is routed when the filter has matched it without interruption since
 * the event was committed: a key keeps the earliest start among the routes that already covered it
 * (narrowing "all messages" to one type keeps that type's earlier events), else it starts now; a
 * route the new filter no longer covers is gone (re-adding it later starts it afresh).
 */
export function nextRouteStarts(previous: readonly RouteStart[], keys: readonly RoutingKey[], now: string): RouteStart[] {
  return routesOver(previous, keys, now);
}

/**
 * The routes the router uses for a subscription: its document's filter, with the starts recorded
 * for it. The document decides what is routed, the rows only from when: rows that no longer match
 * the filter (a subscription written by a build before migration 008, during a rolling upgrade or
 * after a rollback) never narrow it — a key no row covers routes from the start, an extra event
 * rather than a lost one. Without rows (written before starts were kept) every key does.
 */
export function effectiveRoutes(subscription: SubscriptionFilter, recorded: readonly RouteStart[]): RouteStart[] {
  return routesOver(recorded, routingKeys(subscription), FROM_THE_START);
}

interface RouteRow {
  kind: 'message' | 'change';
  resource_type_id: string;
  message_type: string | null;
  start_snapshot: string;
}

/** `subscription_routes` rows as routes. */
export function toRouteStarts(rows: readonly RouteRow[]): RouteStart[] {
  return rows.map((row) => ({
    kind: row.kind,
    resourceTypeId: row.resource_type_id,
    messageType: row.message_type,
    startSnapshot: row.start_snapshot,
  }));
}

function sameFilter(a: SubscriptionFilter, b: SubscriptionFilter): boolean {
  const aKeys = routingKeys(a);
  const bKeys = routingKeys(b);
  return aKeys.every((key) => bKeys.some((other) => sameKey(key, other))) && bKeys.every((key) => aKeys.some((other) => sameKey(key, other)));
}

/**
 * Records the routes of a subscription just created (`previous` undefined) or updated, in the
 * transaction that wrote it. Its snapshot does not see this transaction itself
 * (`seeingNotItself`), so a subscription to subscription changes receives the notification of the
 * write that created or widened it.
 */
export async function recordRouteStarts(
  tx: Queryable,
  projectKey: string,
  previous: (SubscriptionFilter & { id: string }) | undefined,
  next: SubscriptionFilter & { id: string },
): Promise<void> {
  if (previous !== undefined && sameFilter(previous, next)) return;
  const read = await tx.query<{ now: string; me: string; routes: RouteRow[] | null }>(
    `SELECT pg_current_snapshot()::text AS now, pg_current_xact_id()::text AS me,
       (SELECT json_agg(r) FROM (SELECT kind, resource_type_id, message_type, start_snapshot::text AS start_snapshot
         FROM subscription_routes WHERE project_key = $1 AND subscription_id = $2) r) AS routes`,
    [projectKey, next.id],
  );
  const row = read.rows[0];
  if (row === undefined) throw new Error('pg_current_snapshot() answered no row');
  const stored = toRouteStarts(row.routes ?? []);
  // What routed until now: the previous document's filter with the recorded starts (the same
  // routes the router used), so rows another build left behind never carry over.
  const before = previous === undefined ? stored : effectiveRoutes(previous, stored);
  const routes = nextRouteStarts(before, routingKeys(next), seeingNotItself(row.now, row.me));
  await raiseRoutingEpoch(tx, projectKey);
  await tx.query(
    `WITH gone AS (DELETE FROM subscription_routes WHERE project_key = $1 AND subscription_id = $2)
     INSERT INTO subscription_routes (project_key, subscription_id, kind, resource_type_id, message_type, start_snapshot)
     SELECT $1, $2, r.kind, r.resource_type_id, r.message_type, r.start_snapshot::pg_snapshot
     FROM jsonb_to_recordset($3::jsonb) AS r(kind text, resource_type_id text, message_type text, start_snapshot text)`,
    [
      projectKey,
      next.id,
      JSON.stringify(
        routes.map((route) => ({
          kind: route.kind,
          resource_type_id: route.resourceTypeId,
          message_type: route.messageType,
          start_snapshot: route.startSnapshot,
        })),
      ),
    ],
  );
}

/**
 * `snapshot` with the transaction `me` counted as running. PostgreSQL never lists a transaction in
 * its own snapshot: once a later one has committed, the snapshot's xmax is past it and its own rows
 * look committed before the snapshot, so a subscription to subscription changes missed the
 * notification of its own create on a busy server (never on PGlite, with one connection).
 */
export function seeingNotItself(snapshot: string, me: string): string {
  const { xmin, xmax, running } = snapshotParts(snapshot);
  const own = BigInt(me);
  if (own >= xmax || running.includes(own)) return snapshot;
  running.push(own);
  running.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `${xmin < own ? xmin : own}:${xmax}:${running.join(',')}`;
}

/** Removes the routes of a deleted subscription, in the transaction that deletes it. */
export async function forgetRouteStarts(tx: Queryable, projectKey: string, subscriptionId: string): Promise<void> {
  await raiseRoutingEpoch(tx, projectKey);
  await tx.query('DELETE FROM subscription_routes WHERE project_key = $1 AND subscription_id = $2', [projectKey, subscriptionId]);
}

/**
 * Raises the project's routing epoch (migration 011) in a transaction that changes its routes:
 * routers whose cache was read at an older epoch claim none of the project's events until they
 * have read the routes again (router.ts). The row lock orders the project's subscription writes.
 */
async function raiseRoutingEpoch(tx: Queryable, projectKey: string): Promise<void> {
  await tx.query(
    `INSERT INTO routing_epochs (project_key, epoch) VALUES ($1, 1)
     ON CONFLICT (project_key) DO UPDATE SET epoch = routing_epochs.epoch + 1`,
    [projectKey],
  );
}
