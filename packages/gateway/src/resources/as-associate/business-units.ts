import type { DocumentStore } from '@herald/store';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { queryRequest } from '../../http/query-params.js';
import { MANAGE_BUSINESS_UNITS, VIEW_BUSINESS_UNITS } from '../business-units/scopes.js';
import type { Actor, BusinessUnitService } from '../business-units/service.js';
import { presentBusinessUnit } from '../business-units/present.js';
import { requestContext } from '../shared/context.js';
import { expanding, locatorOf } from '../shared/route-helpers.js';
import { parseUpdateBody } from '../shared/update-actions.js';
import { AS_ASSOCIATE, type AssociatePathParams } from './associate-path.js';

type Query = Record<string, string | string[] | undefined>;

const VIEW = { auth: { anyOf: [VIEW_BUSINESS_UNITS, MANAGE_BUSINESS_UNITS] } };
const MANAGE = { auth: { anyOf: [MANAGE_BUSINESS_UNITS] } };

/** The path's associate as the actor of the business unit service. */
function associateOf(request: FastifyRequest): Actor {
  return { kind: 'customer', customerId: (request.params as AssociatePathParams).associateId };
}

/**
 * `/{projectKey}/as-associate/{associateId}/business-units` (reference: "BusinessUnits as
 * Associate"): an API client (view_/manage_business_units) acts for the associate, with the same
 * rules as the associate's own `/me/business-units`: it sees the units it is an associate of,
 * creates units (AddChildUnits in the parent for a Division; it becomes an associate with the
 * project's role on creation) and updates them with the permission each action needs
 * (UpdateBusinessUnitDetails, UpdateAssociates, UpdateParentUnit; business-units/my-permissions.ts).
 */
export function registerAssociateBusinessUnitRoutes(app: FastifyInstance, service: BusinessUnitService, documents: DocumentStore): void {
  const base = `${AS_ASSOCIATE}/business-units`;
  const projectKeyOf = (request: FastifyRequest) => (request.params as AssociatePathParams).projectKey;

  app.get(
    base,
    { config: VIEW },
    expanding(documents, async (request, expansion) => {
      const page = await service.query(projectKeyOf(request), queryRequest(request.query as Query), associateOf(request));
      const results = await expansion.all(page.results);
      return { ...page, results: await Promise.all(results.map((unit) => presentBusinessUnit(documents, projectKeyOf(request), unit))) };
    }),
  );

  app.post(
    base,
    { config: MANAGE },
    expanding(documents, async (request, expansion, reply) => {
      const unit = await service.create(requestContext(request, documents), request.body, associateOf(request));
      return reply.status(201).send(await presentBusinessUnit(documents, projectKeyOf(request), await expansion.one(unit)));
    }),
  );

  for (const path of [`${base}/:id`, `${base}/key=:key`]) {
    app.get(
      path,
      { config: VIEW },
      expanding(documents, async (request, expansion) => {
        const unit = await service.get(projectKeyOf(request), locatorOf(request.params as AssociatePathParams), associateOf(request));
        return presentBusinessUnit(documents, projectKeyOf(request), await expansion.one(unit));
      }),
    );

    app.post(
      path,
      { config: MANAGE },
      expanding(documents, async (request, expansion) => {
        const { version, actions } = parseUpdateBody(request.body);
        const ctx = requestContext(request, documents);
        const unit = await service.update(ctx, locatorOf(request.params as AssociatePathParams), version, actions, associateOf(request));
        return presentBusinessUnit(documents, projectKeyOf(request), await expansion.one(unit));
      }),
    );
  }
}
