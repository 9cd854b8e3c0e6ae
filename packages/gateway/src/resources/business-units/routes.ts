import type { DocumentStore } from '@herald/store';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ProjectRouteAuth } from '../../auth/types.js';
import { booleanParam, queryRequest, versionParam } from '../../http/query-params.js';
import { customerOf } from '../shared/buyer.js';
import { requestContext } from '../shared/context.js';
import { expanding, locatorOf } from '../shared/route-helpers.js';
import { parseUpdateBody } from '../shared/update-actions.js';
import { MANAGE_BUSINESS_UNITS, MANAGE_MY_BUSINESS_UNITS, VIEW_BUSINESS_UNITS } from './scopes.js';
import { CLIENT, type Actor, type BusinessUnitService } from './service.js';
import type { BusinessUnit } from './business-unit.js';
import { presentBusinessUnit } from './present.js';

type Params = { projectKey: string; id?: string; key?: string };
type Query = Record<string, string | string[] | undefined>;

type RouteConfig = { auth: ProjectRouteAuth };

const VIEW: RouteConfig = { auth: { anyOf: [VIEW_BUSINESS_UNITS, MANAGE_BUSINESS_UNITS] } };
const MANAGE: RouteConfig = { auth: { anyOf: [MANAGE_BUSINESS_UNITS] } };
const MY: RouteConfig = { auth: { anyOf: [MANAGE_MY_BUSINESS_UNITS], me: 'customer' } };

/**
 * REST for business units, over the same service as GraphQL:
 * - `/{projectKey}/business-units`: the eight operations of the resource template (query,
 *   create, get/update/delete by id and by key), with where/var.*, sort, paging and expand.
 * - `/{projectKey}/me/business-units`: the token's customer's units (query, create, get and
 *   update by id and by key). No delete: GraphQL has no `deleteMyBusinessUnit` either (§4.3).
 * Update actions are named as the GraphQL members: `{version, actions: [{action: 'changeName', name}]}`.
 */
export function registerBusinessUnitRoutes(app: FastifyInstance, service: BusinessUnitService, documents: DocumentStore): void {
  /** Every REST answer: the reference's required fields and `inheritedAssociates` (present.ts). */
  const present = (request: FastifyRequest, unit: BusinessUnit) => presentBusinessUnit(documents, (request.params as Params).projectKey, unit);
  const presentAll = (request: FastifyRequest, units: readonly BusinessUnit[]) => Promise.all(units.map((unit) => present(request, unit)));

  const routes = [
    { base: '/:projectKey/business-units', view: VIEW, manage: MANAGE, actor: (): Actor => CLIENT },
    {
      base: '/:projectKey/me/business-units',
      view: MY,
      manage: MY,
      actor: (request: FastifyRequest): Actor => ({ kind: 'customer', customerId: customerOf(request.auth) }),
    },
  ];

  for (const { base, view, manage, actor } of routes) {
    app.get(
      base,
      { config: view },
      expanding(documents, async (request, expansion) => {
        const query = queryRequest(request.query as Query);
        const page = await service.query((request.params as Params).projectKey, query, actor(request));
        return { ...page, results: await presentAll(request, await expansion.all(page.results)) };
      }),
    );

    app.post(
      base,
      { config: manage },
      expanding(documents, async (request, expansion, reply) => {
        const unit = await service.create(requestContext(request, documents), request.body, actor(request));
        return reply.status(201).send(await present(request, await expansion.one(unit)));
      }),
    );

    for (const path of [`${base}/:id`, `${base}/key=:key`]) {
      app.get(
        path,
        { config: view },
        expanding(documents, async (request, expansion) => {
          const params = request.params as Params;
          return present(request, await expansion.one(await service.get(params.projectKey, locatorOf(params), actor(request))));
        }),
      );

      app.post(
        path,
        { config: manage },
        expanding(documents, async (request, expansion) => {
          const { version, actions } = parseUpdateBody(request.body);
          const ctx = requestContext(request, documents);
          return present(request, await expansion.one(await service.update(ctx, locatorOf(request.params as Params), version, actions, actor(request))));
        }),
      );
    }
  }

  for (const path of ['/:projectKey/business-units/:id', '/:projectKey/business-units/key=:key']) {
    app.delete(
      path,
      { config: MANAGE },
      expanding(documents, async (request, expansion) => {
        const query = request.query as Query;
        const ctx = requestContext(request, documents);
        const deleted = await service.delete(ctx, locatorOf(request.params as Params), versionParam(query), booleanParam(query, 'dataErasure', false));
        return present(request, await expansion.one(deleted));
      }),
    );
  }
}
