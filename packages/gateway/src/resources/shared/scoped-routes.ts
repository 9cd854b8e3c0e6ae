import { invalidOperation, resourceNotFound, type BaseResource, type MessagePayload } from '@herald/model';
import { runPagedQuery, typeScope, type ServerFields } from '@herald/store';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ProjectRouteAuth } from '../../auth/types.js';
import { booleanParam, queryRequest, versionParam } from '../../http/query-params.js';
import { requestContext, type RequestContext, type ResourceDeps } from './context.js';
import { applyActions, parseUpdateBody, type ActionHandlers } from './update-actions.js';
import { expanding, locatorOf, type ResourceParams } from './route-helpers.js';
import { notFoundMessage } from './versioned-routes.js';
import { inScope, scopeSql, type DocumentScope } from './document-scope.js';

/**
 * A resource served under a scoped path (`/me/carts`, `/in-store/key={storeKey}/carts`,
 * `/me/quote-requests`): the operations of `registerVersionedRoutes`, restricted to the
 * documents of `scopeOf(request)`. A document outside the scope answers exactly like one that
 * does not exist (404, checked before the version so a 409 cannot reveal it either).
 *
 * Operations are opt-in: `create`, `actions` and `remove` each add their routes when present.
 */
export interface ScopedResource<D extends BaseResource> {
  typeId: string;
  /** Path after `/:projectKey/`; may contain `:storeKey`. */
  path: string;
  scopes: { view: readonly string[]; manage: readonly string[] };
  /** `/me` routes: whom the token must act for (the authenticator checks it, see auth/types.ts). */
  me?: ProjectRouteAuth['me'];
  /** The documents this request may see (throws the 403 when the token cannot use the route). */
  scopeOf(request: FastifyRequest): DocumentScope;
  /** Validates a draft; the result must lie within the request's scope. */
  create?(body: unknown, ctx: RequestContext, request: FastifyRequest): Promise<Omit<D, ServerFields>>;
  createdMessages?(doc: D): MessagePayload[];
  actions?: ActionHandlers<D>;
  remove?: { messages?(doc: D): MessagePayload[]; personalData?: boolean };
}

type Params = ResourceParams;
type Query = Record<string, string | string[] | undefined>;

export function registerScopedRoutes<D extends BaseResource>(app: FastifyInstance, resource: ScopedResource<D>, deps: ResourceDeps): void {
  const { documents } = deps;
  const base = `/:projectKey/${resource.path}`;
  const me = resource.me === undefined ? {} : { me: resource.me };
  const view = { auth: { anyOf: [...resource.scopes.view, ...resource.scopes.manage], ...me } };
  const manage = { auth: { anyOf: resource.scopes.manage, ...me } };

  /** The current document if it exists and is visible; the same 404 otherwise. */
  const visible = async (request: FastifyRequest, scope: DocumentScope): Promise<D> => {
    const params = request.params as Params;
    const doc = await documents.get<D>(params.projectKey, resource.typeId, locatorOf(params));
    if (doc === undefined || !inScope(doc, scope)) throw resourceNotFound(notFoundMessage(resource.typeId, locatorOf(params)));
    return doc;
  };

  app.get(
    base,
    { config: view },
    expanding(documents, async (request, expansion) => {
      const scope = resource.scopeOf(request);
      const query = request.query as Query;
      const projectKey = (request.params as Params).projectKey;
      const conditions = scopeSql(scope, 3);
      const ofType = typeScope(resource.typeId);
      const page = await runPagedQuery<D>(
        documents.db,
        'resources',
        [...ofType.scope, ...conditions.sql],
        [projectKey, resource.typeId, ...conditions.params],
        { ...queryRequest(query), documentOf: ofType.documentOf },
      );
      page.results = await expansion.all(page.results);
      return page;
    }),
  );

  const read = expanding(documents, async (request, expansion) => expansion.one(await visible(request, resource.scopeOf(request))));

  const update = expanding(documents, async (request, expansion) => {
    const actions = resource.actions ?? {};
    const scope = resource.scopeOf(request);
    const ctx = requestContext(request, documents);
    const body = parseUpdateBody(request.body);
    const current = await visible(request, scope);
    const doc = await documents.update<D>(ctx.write, resource.typeId, { id: current.id }, body.version, async (locked, reader) => {
      if (!inScope(locked, scope)) throw resourceNotFound(notFoundMessage(resource.typeId, { id: current.id }));
      const messages = await applyActions(actions, locked, body.actions, { ctx, reader });
      if (!inScope(locked, scope)) throw invalidOperation('The update would move the resource out of reach of this endpoint.');
      return { doc: locked, messages };
    });
    return expansion.one(doc);
  });

  const remove = expanding(documents, async (request, expansion) => {
    const scope = resource.scopeOf(request);
    const ctx = requestContext(request, documents);
    const query = request.query as Query;
    const version = versionParam(query);
    const dataErasure = resource.remove?.personalData === true ? booleanParam(query, 'dataErasure', false) : false;
    const current = await visible(request, scope);
    // The version check inside the delete's transaction guarantees it deletes what was checked.
    const messages = resource.remove?.messages;
    const doc = await documents.delete<D>(ctx.write, resource.typeId, { id: current.id }, version, {
      dataErasure,
      ...(messages === undefined ? {} : { messages }),
    });
    return expansion.one(doc);
  });

  const create = resource.create;
  if (create !== undefined) {
    app.post(
      base,
      { config: manage },
      expanding(documents, async (request, expansion, reply) => {
        const scope = resource.scopeOf(request);
        const ctx = requestContext(request, documents);
        const fields = await create(request.body, ctx, request);
        if (!inScope(fields, scope)) throw new Error(`${resource.typeId} draft of a scoped route lies outside its scope`);
        const doc = await documents.create<D>(ctx.write, resource.typeId, fields, resource.createdMessages);
        return reply.status(201).send(await expansion.one(doc));
      }),
    );
  }

  for (const path of [`${base}/:id`, `${base}/key=:key`]) {
    app.get(path, { config: view }, read);
    if (resource.actions !== undefined) app.post(path, { config: manage }, update);
    if (resource.remove !== undefined) app.delete(path, { config: manage }, remove);
  }
}
