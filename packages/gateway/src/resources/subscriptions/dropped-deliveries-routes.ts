import { DROP_REASONS, type DropReason, type DroppedFilter, type DroppedPaging } from '@herald/delivery';
import { invalidInput } from '@herald/model';
import type { DocumentStore } from '@herald/store';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { single } from '../../http/query-params.js';
import { identifierLocator, referencedResourceNotFound } from '../shared/references.js';
import type { SubscriptionDelivery } from './delivery-port.js';
import type { StoredSubscription } from './definition.js';

/*
 * Herald's project-level view of dropped deliveries (issue 25). `/{projectKey}/subscriptions/{id}/dropped`
 * needs a subscription that exists; the drops of a deleted one (reason `SubscriptionDeleted`) are
 * reached here by the id it had: listed, replayed to another subscription, or purged. Names and
 * shapes follow the per-subscription endpoints (paging, `ids`, `{ replayed }`).
 */

const MANAGE = { auth: { anyOf: ['manage_subscriptions'] } } as const;
const BASE = '/:projectKey/subscriptions/dropped-deliveries';
/** As for `POST …/{id}/dropped/replay`: one request names at most 500 drop records. */
const MAX_IDS = 500;

type RawQuery = Record<string, string | string[] | undefined>;
type SourceFilter = DroppedFilter & { subscriptionId: string };

function projectKeyOf(request: FastifyRequest): string {
  return (request.params as { projectKey: string }).projectKey;
}

function reasonOf(value: unknown, field: string): DropReason | undefined {
  if (value === undefined) return undefined;
  if (DROP_REASONS.includes(value as DropReason)) return value as DropReason;
  throw invalidInput(`'${field}' must be one of ${DROP_REASONS.join(', ')}.`, { field, invalidValue: value });
}

function subscriptionIdOf(value: unknown, field: string): string {
  if (typeof value === 'string' && value.length > 0 && value.length <= 256) return value;
  throw invalidInput(`'${field}' must be the id of the subscription the deliveries were dropped from.`, { field });
}

function idsOf(value: unknown, field: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length > MAX_IDS || !value.every((id) => typeof id === 'string')) {
    throw invalidInput(`'${field}' must be an array of at most ${MAX_IDS} dropped-delivery ids (omit it for all).`, { field });
  }
  return value as string[];
}

/** `subscriptionId` and `reason` query parameters; `subscriptionId` is required when `required`. */
function queryFilter(query: RawQuery, required: true): SourceFilter;
function queryFilter(query: RawQuery, required: false): DroppedFilter;
function queryFilter(query: RawQuery, required: boolean): DroppedFilter {
  const subscriptionId = single(query, 'subscriptionId');
  const reason = reasonOf(single(query, 'reason'), 'reason');
  const filter: DroppedFilter = reason === undefined ? {} : { reason };
  // A purge without it would remove every drop record of the project: it must be asked for by name.
  if (subscriptionId !== undefined || required) filter.subscriptionId = subscriptionIdOf(subscriptionId, 'subscriptionId');
  return filter;
}

function pagingOf(query: RawQuery): DroppedPaging {
  const [limit, offset, withTotal] = [single(query, 'limit'), single(query, 'offset'), single(query, 'withTotal')];
  return {
    ...(limit === undefined ? {} : { limit }),
    ...(offset === undefined ? {} : { offset }),
    ...(withTotal === undefined ? {} : { withTotal }),
  };
}

function objectField(body: Record<string, unknown>, field: string): Record<string, unknown> {
  const value = body[field];
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  throw invalidInput(`'${field}' is required and must be an object.`, { field });
}

/** `from` of a replay: the subscription the deliveries were dropped from, optionally narrowed. */
function sourceOf(body: Record<string, unknown>): SourceFilter {
  const from = objectField(body, 'from');
  const filter: SourceFilter = { subscriptionId: subscriptionIdOf(from.subscriptionId, 'from.subscriptionId') };
  const reason = reasonOf(from.reason, 'from.reason');
  const ids = idsOf(from.ids, 'from.ids');
  if (reason !== undefined) filter.reason = reason;
  if (ids !== undefined) filter.ids = ids;
  return filter;
}

/** `to` of a replay: a ResourceIdentifier of an existing subscription (400 ReferencedResourceNotFound otherwise). */
async function targetOf(documents: DocumentStore, projectKey: string, body: Record<string, unknown>): Promise<StoredSubscription> {
  const locator = identifierLocator(objectField(body, 'to'), 'to', 'subscription');
  const target = await documents.get<StoredSubscription>(projectKey, 'subscription', locator);
  if (target === undefined) throw referencedResourceNotFound('subscription', locator);
  return target;
}

/** `GET`, `DELETE` and `POST …/replay` of `/{projectKey}/subscriptions/dropped-deliveries`, scope manage_subscriptions. */
export function registerDroppedDeliveriesRoutes(app: FastifyInstance, documents: DocumentStore, delivery: SubscriptionDelivery): void {
  app.get(BASE, { config: MANAGE }, async (request) => {
    const query = request.query as RawQuery;
    return delivery.listProjectDropped(projectKeyOf(request), queryFilter(query, false), pagingOf(query));
  });

  app.delete(BASE, { config: MANAGE }, async (request) => {
    return delivery.purgeDropped(projectKeyOf(request), queryFilter(request.query as RawQuery, true));
  });

  app.post(`${BASE}/replay`, { config: MANAGE }, async (request) => {
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw invalidInput("The body must be an object with 'from' and 'to'.");
    }
    const projectKey = projectKeyOf(request);
    const source = sourceOf(body as Record<string, unknown>);
    const target = await targetOf(documents, projectKey, body as Record<string, unknown>);
    return delivery.replayDroppedTo(projectKey, source, target.id);
  });
}
