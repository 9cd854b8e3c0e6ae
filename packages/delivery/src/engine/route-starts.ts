import type { Subscription } from '@herald/model';
import type { Queryable } from '@herald/store';
import { routingKeys, type RoutingKey } from './matching.js';

/**
 * A routing key with the outbox position it starts after: it routes only events whose `seq` is
 * larger. The router matches an event when it routes it, which after a worker outage can be hours
 * after the event was written; the start keeps a subscription (or a filter entry) from receiving
 * events written before it existed.
 */
export interface RouteStart extends RoutingKey {
  afterSeq: number;
}

type SubscriptionFilter = Pick<Subscription, 'messages' | 'changes'>;

/** Whether every event `outer` matches is matched by `inner`'s key as well, i.e. `outer` covers `inner`. */
function covers(outer: RoutingKey, inner: RoutingKey): boolean {
  return (
    outer.kind === inner.kind &&
    outer.resourceTypeId === inner.resourceTypeId &&
    (outer.messageType === null || outer.messageType === inner.messageType)
  );
}

function sameKey(a: RoutingKey, b: RoutingKey): boolean {
  return a.kind === b.kind && a.resourceTypeId === b.resourceTypeId && a.messageType === b.messageType;
}

/**
 * The routes of a subscription whose filter becomes `keys`, given its routes so far and the outbox
 * position now. An event is routed when it matched the filter as it was when the event was
 * written, and matches it still:
 * - a key keeps the earliest start among the routes that already covered it (narrowing "all
 *   messages" to one type keeps that type's earlier events), else it starts now;
 * - a route the new filter still covers stays with its start (widening one type to "all messages"
 *   keeps that type's earlier events, without taking the other types' earlier events along);
 * - a route the new filter no longer covers is gone.
 */
export function nextRouteStarts(previous: readonly RouteStart[], keys: readonly RoutingKey[], position: number): RouteStart[] {
  const next: RouteStart[] = [];
  for (const key of keys) {
    if (next.some((route) => sameKey(route, key))) continue;
    let afterSeq = position;
    for (const route of previous) if (covers(route, key)) afterSeq = Math.min(afterSeq, route.afterSeq);
    next.push({ kind: key.kind, resourceTypeId: key.resourceTypeId, messageType: key.messageType, afterSeq });
  }
  for (const route of previous) {
    if (next.some((kept) => sameKey(kept, route))) continue;
    if (next.some((kept) => covers(kept, route) && kept.afterSeq > route.afterSeq)) next.push(route);
  }
  return next;
}

/** Routes of a subscription without rows (created before starts were kept): its keys, from the start. */
export function routesFromStart(subscription: SubscriptionFilter): RouteStart[] {
  return nextRouteStarts([], routingKeys(subscription), 0);
}

interface RouteRow {
  kind: 'message' | 'change';
  resource_type_id: string;
  message_type: string | null;
  after_seq: number | string;
}

/** `subscription_routes` rows as routes (bigint columns arrive as strings from `pg`). */
export function toRouteStarts(rows: readonly RouteRow[]): RouteStart[] {
  return rows.map((row) => ({
    kind: row.kind,
    resourceTypeId: row.resource_type_id,
    messageType: row.message_type,
    afterSeq: Number(row.after_seq),
  }));
}

function sameFilter(a: SubscriptionFilter, b: SubscriptionFilter): boolean {
  const aKeys = routingKeys(a);
  const bKeys = routingKeys(b);
  return aKeys.every((key) => bKeys.some((other) => sameKey(key, other))) && bKeys.every((key) => aKeys.some((other) => sameKey(key, other)));
}

/**
 * Records the routes of a subscription just created (`previous` undefined) or updated, in the
 * transaction that wrote it — after its own outbox rows, so that a subscription never receives
 * the change notification of the write that created or widened it (the test notification of §4.2
 * rule 1 is that notice).
 */
export async function recordRouteStarts(
  tx: Queryable,
  projectKey: string,
  previous: (SubscriptionFilter & { id: string }) | undefined,
  next: SubscriptionFilter & { id: string },
): Promise<void> {
  if (previous !== undefined && sameFilter(previous, next)) return;
  const read = await tx.query<{ position: number | string | null; routes: RouteRow[] | null }>(
    `SELECT pg_sequence_last_value(pg_get_serial_sequence('outbox', 'seq')::regclass) AS position,
       (SELECT json_agg(r) FROM (SELECT kind, resource_type_id, message_type, after_seq FROM subscription_routes
         WHERE project_key = $1 AND subscription_id = $2) r) AS routes`,
    [projectKey, next.id],
  );
  const row = read.rows[0];
  const stored = toRouteStarts(row?.routes ?? []);
  const before = stored.length > 0 || previous === undefined ? stored : routesFromStart(previous);
  const routes = nextRouteStarts(before, routingKeys(next), Number(row?.position ?? 0));
  await tx.query(
    `WITH gone AS (DELETE FROM subscription_routes WHERE project_key = $1 AND subscription_id = $2)
     INSERT INTO subscription_routes (project_key, subscription_id, kind, resource_type_id, message_type, after_seq)
     SELECT $1, $2, r.kind, r.resource_type_id, r.message_type, r.after_seq
     FROM jsonb_to_recordset($3::jsonb) AS r(kind text, resource_type_id text, message_type text, after_seq bigint)`,
    [
      projectKey,
      next.id,
      JSON.stringify(
        routes.map((route) => ({
          kind: route.kind,
          resource_type_id: route.resourceTypeId,
          message_type: route.messageType,
          after_seq: route.afterSeq,
        })),
      ),
    ],
  );
}

/** Removes the routes of a deleted subscription, in the transaction that deletes it. */
export async function forgetRouteStarts(tx: Queryable, projectKey: string, subscriptionId: string): Promise<void> {
  await tx.query('DELETE FROM subscription_routes WHERE project_key = $1 AND subscription_id = $2', [projectKey, subscriptionId]);
}
