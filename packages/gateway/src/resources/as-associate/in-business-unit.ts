import { invalidOperation, resourceNotFound, type BaseResource, type MessagePayload } from '@herald/model';
import { runPagedQuery, typeScope, type ServerFields } from '@herald/store';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { booleanParam, queryRequest, versionParam } from '../../http/query-params.js';
import type { OwnedPermission } from '../associates/permissions.js';
import { requirePermission, requireViewPermission, type AssociateScope } from '../associates/require-permission.js';
import { requestContext, type RequestContext, type ResourceDeps } from '../shared/context.js';
import { inScope, scopeSql, type DocumentScope } from '../shared/document-scope.js';
import { expanding, locatorOf, type Expansion } from '../shared/route-helpers.js';
import { applyActions, parseUpdateBody, type ActionHandlers } from '../shared/update-actions.js';
import { notFoundMessage } from '../shared/versioned-routes.js';
import { associateScopeOf, IN_BUSINESS_UNIT, type AssociatePathParams } from './associate-path.js';

/**
 * A B2B resource under `/as-associate/{associateId}/in-business-unit/key={businessUnitKey}/…`
 * (reference: resources/as-associate.raml): the documents whose `businessUnit` is the path's
 * unit, each operation checked against the associate's permissions in it (associates/), My or
 * Others by the document's customer.
 */
export interface InBusinessUnitResource<D extends BaseResource> {
  typeId: string;
  /** Path segment after the unit, e.g. `carts`. */
  path: string;
  /** The API client's scopes (the reference's securedBy: the caller acts for the associate). */
  scopes: { view: readonly string[]; manage: readonly string[] };
  /** Where the document names its customer (`customerId` on carts, `customer.id` on quote requests). */
  customerPath: readonly string[];
  permissions: { view: OwnedPermission; update?: OwnedPermission; delete?: OwnedPermission };
  /** Validates a draft for the unit; checks its own create permission (it depends on the draft). */
  create?(body: unknown, ctx: RequestContext, scope: AssociateScope, deps: ResourceDeps): Promise<Omit<D, ServerFields>>;
  createdMessages?(doc: D): MessagePayload[];
  actions?: ActionHandlers<D>;
  remove?: { messages?(doc: D): MessagePayload[]; personalData?: boolean };
  present?(doc: D): unknown;
}

type Query = Record<string, string | string[] | undefined>;

function valueAt(doc: object, path: readonly string[]): unknown {
  let current: unknown = doc;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** The customer whose document it is (My vs Others), if it names one. */
export function customerAt(doc: object, path: readonly string[]): string | undefined {
  const value = valueAt(doc, path);
  return typeof value === 'string' ? value : undefined;
}

/**
 * The request's context with the associate in `createdBy`/`lastModifiedBy` (the reference's
 * Initiator `associate`: "the Associate who made the change … on behalf of a Business Unit").
 */
function associateContext(request: FastifyRequest, deps: ResourceDeps, scope: AssociateScope): RequestContext {
  const ctx = requestContext(request, deps.documents);
  const initiator = { ...ctx.write.initiator, associate: { typeId: 'customer' as const, id: scope.associateId } };
  return { ...ctx, write: { ...ctx.write, initiator } };
}

const unitCondition = (businessUnitKey: string) => ({ path: ['businessUnit', 'key'], value: businessUnitKey });

/**
 * The reference: "If the {resource} exists in the Project but does not reference the requested
 * BusinessUnit, this method returns an InvalidOperation error."
 */
function notInUnit(typeId: string, businessUnitKey: string): Error {
  return invalidOperation(`The ${typeId} does not belong to the business unit '${businessUnitKey}'.`);
}

export function registerInBusinessUnitRoutes<D extends BaseResource>(app: FastifyInstance, resource: InBusinessUnitResource<D>, deps: ResourceDeps): void {
  const { documents } = deps;
  const base = `${IN_BUSINESS_UNIT}/${resource.path}`;
  const view = { auth: { anyOf: [...resource.scopes.view, ...resource.scopes.manage] } };
  const manage = { auth: { anyOf: resource.scopes.manage } };
  const present = async (expansion: Expansion, doc: D): Promise<unknown> => {
    const expanded = await expansion.one(doc);
    return resource.present === undefined ? expanded : resource.present(expanded);
  };

  /** The document of the path in the unit, with the permission `required` for its customer. */
  const permitted = async (request: FastifyRequest, required: OwnedPermission): Promise<D> => {
    const scope = associateScopeOf(request);
    const params = request.params as AssociatePathParams;
    const doc = await documents.get<D>(scope.projectKey, resource.typeId, locatorOf(params));
    if (doc === undefined) throw resourceNotFound(notFoundMessage(resource.typeId, locatorOf(params)));
    // The unit's existence and the associate's permission first: a 400 must not tell an outsider about other units' documents.
    await requirePermission({ documents }, scope, required, customerAt(doc, resource.customerPath));
    if (!inScope(doc, { conditions: [unitCondition(scope.businessUnitKey)] })) throw notInUnit(resource.typeId, scope.businessUnitKey);
    return doc;
  };

  app.get(
    base,
    { config: view },
    expanding(documents, async (request, expansion) => {
      const scope = associateScopeOf(request);
      const { sees } = await requireViewPermission({ documents }, scope, resource.permissions.view, { action: `view ${resource.path}` });
      const conditions: DocumentScope['conditions'] = [
        unitCondition(scope.businessUnitKey),
        ...(sees === 'own' ? [{ path: resource.customerPath, value: scope.associateId }] : []),
      ];
      const sql = scopeSql({ conditions }, 3);
      const ofType = typeScope(resource.typeId);
      const page = await runPagedQuery<D>(documents.db, 'resources', [...ofType.scope, ...sql.sql], [scope.projectKey, resource.typeId, ...sql.params], {
        ...queryRequest(request.query as Query),
        documentOf: ofType.documentOf,
      });
      const results = await expansion.all(page.results);
      return { ...page, results: resource.present === undefined ? results : results.map((doc) => resource.present?.(doc)) };
    }),
  );

  for (const path of [`${base}/:id`, `${base}/key=:key`]) {
    app.get(
      path,
      { config: view },
      expanding(documents, async (request, expansion) => present(expansion, await permitted(request, resource.permissions.view))),
    );
  }

  registerWrites(app, resource, deps, { base, manage, permitted, present });
}

interface WriteRoutes<D extends BaseResource> {
  base: string;
  manage: { auth: { anyOf: readonly string[] } };
  permitted(request: FastifyRequest, required: OwnedPermission): Promise<D>;
  present(expansion: Expansion, doc: D): Promise<unknown>;
}

function registerWrites<D extends BaseResource>(app: FastifyInstance, resource: InBusinessUnitResource<D>, deps: ResourceDeps, routes: WriteRoutes<D>): void {
  const { documents } = deps;
  const { create, actions, remove } = resource;
  const update = resource.permissions.update;
  const removal = resource.permissions.delete;

  if (create !== undefined) {
    app.post(
      routes.base,
      { config: routes.manage },
      expanding(documents, async (request, expansion, reply) => {
        const scope = associateScopeOf(request);
        const ctx = associateContext(request, deps, scope);
        const fields = await create(request.body, ctx, scope, deps);
        if (!inScope(fields, { conditions: [unitCondition(scope.businessUnitKey)] })) throw notInUnit(resource.typeId, scope.businessUnitKey);
        const doc = await documents.create<D>(ctx.write, resource.typeId, fields, resource.createdMessages);
        return reply.status(201).send(await routes.present(expansion, doc));
      }),
    );
  }

  for (const path of [`${routes.base}/:id`, `${routes.base}/key=:key`]) {
    if (actions !== undefined && update !== undefined) {
      app.post(
        path,
        { config: routes.manage },
        expanding(documents, async (request, expansion) => {
          const scope = associateScopeOf(request);
          const body = parseUpdateBody(request.body);
          const current = await routes.permitted(request, update);
          const ctx = associateContext(request, deps, scope);
          const doc = await documents.update<D>(ctx.write, resource.typeId, { id: current.id }, body.version, async (locked, reader) => {
            const messages = await applyActions(actions, locked, body.actions, { ctx, reader });
            // An update may neither move the document to another unit nor hand it to a customer the associate may not act for.
            if (!inScope(locked, { conditions: [unitCondition(scope.businessUnitKey)] }))
              throw invalidOperation('The update would move the resource out of the business unit.');
            const owner = customerAt(locked, resource.customerPath);
            if (owner !== customerAt(current, resource.customerPath)) await requirePermission({ documents }, scope, update, owner);
            return { doc: locked, messages };
          });
          return routes.present(expansion, doc);
        }),
      );
    }
    if (remove !== undefined && removal !== undefined) {
      app.delete(
        path,
        { config: routes.manage },
        expanding(documents, async (request, expansion) => {
          const query = request.query as Query;
          const version = versionParam(query);
          const dataErasure = remove.personalData === true ? booleanParam(query, 'dataErasure', false) : false;
          const current = await routes.permitted(request, removal);
          const ctx = associateContext(request, deps, associateScopeOf(request));
          const doc = await documents.delete<D>(ctx.write, resource.typeId, { id: current.id }, version, {
            dataErasure,
            ...(remove.messages === undefined ? {} : { messages: remove.messages }),
          });
          return routes.present(expansion, doc);
        }),
      );
    }
  }
}
