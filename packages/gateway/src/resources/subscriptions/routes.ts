import { HEALTH_STATUS_CODES, invalidInput, resourceNotFound } from '@herald/model';
import type { DocumentStore } from '@herald/store';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { single } from '../../http/query-params.js';
import type { ResourceDeps } from '../shared/context.js';
import { registerVersionedRoutes } from '../shared/versioned-routes.js';
import type { SubscriptionDelivery } from './delivery-port.js';
import { subscriptionDefinition, type StoredSubscription } from './definition.js';
import { registerDroppedDeliveriesRoutes } from './dropped-deliveries-routes.js';
import { rejectSecretQueries } from './secret-queries.js';
import { subscriptionDocuments } from './subscription-documents.js';

const MANAGE = { auth: { anyOf: ['manage_subscriptions'] } } as const;

type Params = { projectKey: string; id: string };

async function existing(documents: DocumentStore, request: FastifyRequest): Promise<StoredSubscription> {
  const { projectKey, id } = request.params as Params;
  const subscription = await documents.get<StoredSubscription>(projectKey, 'subscription', { id });
  if (subscription === undefined) throw resourceNotFound(`The subscription with id '${id}' was not found.`);
  return subscription;
}

/** §4.2 plus Herald's additions: health, dropped deliveries and their replay, delivery status. */
export function registerSubscriptionRoutes(app: FastifyInstance, deps: ResourceDeps, delivery: SubscriptionDelivery): void {
  // One encapsulated plugin, so that the query guard applies to the subscription routes only.
  void app.register(async (scope) => {
    // §2.4: hidden secrets must not be recoverable through query predicates or sorting.
    scope.addHook('preValidation', async (request) => {
      // HEAD too: its 200/404 answers whether anything matched, an oracle as good as the results.
      if (request.method === 'GET' || request.method === 'HEAD') rejectSecretQueries(request.query as Record<string, string | string[] | undefined>);
    });
    registerRoutes(scope, deps, delivery);
  });
}

function registerRoutes(app: FastifyInstance, deps: ResourceDeps, delivery: SubscriptionDelivery): void {
  // Writes go through the store that enforces the §8 limit and records where routing starts.
  registerVersionedRoutes(app, subscriptionDefinition(deps.documents, delivery), { ...deps, documents: subscriptionDocuments(deps.documents) });
  // Project-level drop records, deleted subscriptions' included (a static path: `:id` never matches it).
  registerDroppedDeliveriesRoutes(app, deps.documents, delivery);

  // §4.2: publicly visible, no body; the status code encodes the health (§7).
  app.get('/:projectKey/subscriptions/:id/health', { config: { auth: 'public' } }, async (request, reply) => {
    const subscription = await existing(deps.documents, request);
    const status = await delivery.health((request.params as Params).projectKey, subscription.id);
    return reply.status(HEALTH_STATUS_CODES[status]).send();
  });

  app.get('/:projectKey/subscriptions/:id/delivery-status', { config: MANAGE }, async (request) => {
    const subscription = await existing(deps.documents, request);
    return delivery.deliveryStatus((request.params as Params).projectKey, subscription.id);
  });

  app.get('/:projectKey/subscriptions/:id/dropped', { config: MANAGE }, async (request) => {
    const subscription = await existing(deps.documents, request);
    const query = request.query as Record<string, string | string[] | undefined>;
    const [limit, offset, withTotal] = [single(query, 'limit'), single(query, 'offset'), single(query, 'withTotal')];
    return delivery.listDropped((request.params as Params).projectKey, subscription.id, {
      ...(limit === undefined ? {} : { limit }),
      ...(offset === undefined ? {} : { offset }),
      ...(withTotal === undefined ? {} : { withTotal }),
    });
  });

  app.post('/:projectKey/subscriptions/:id/dropped/replay', { config: MANAGE }, async (request) => {
    const subscription = await existing(deps.documents, request);
    const body = (request.body ?? {}) as { ids?: unknown };
    let ids: string[] | 'all' = 'all';
    if (body.ids !== undefined) {
      if (!Array.isArray(body.ids) || body.ids.length > 500 || !body.ids.every((id) => typeof id === 'string')) {
        throw invalidInput("'ids' must be an array of at most 500 dropped-delivery ids (omit it to replay all).", { field: 'ids' });
      }
      ids = body.ids as string[];
    }
    return delivery.replayDropped((request.params as Params).projectKey, subscription.id, ids);
  });
}
