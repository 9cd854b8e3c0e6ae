import { resourceNotFound, type BaseResource, type MessagePayload } from '@herald/model';
import { type Locator, type Queryable, type ServerFields, type TransactionReader, type UpdateOptions } from '@herald/store';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { booleanParam, queryRequest, versionParam } from '../../http/query-params.js';
import { requestContext, type RequestContext, type ResourceDeps } from './context.js';
import { expanding, locatorOf, type Expansion, type ResourceParams } from './route-helpers.js';
import { applyActions, parseUpdateBody, type ActionHandlers, type UpdateAction } from './update-actions.js';

/**
 * Everything that makes a resource type: the template each resource module fills in. The eight
 * operations (get/update/delete by id and by key, query, create) come from `registerVersionedRoutes`.
 */
export interface ResourceDefinition<D extends BaseResource> {
  typeId: string;
  /** Path segment under `/{projectKey}/`, e.g. `stores`. */
  path: string;
  scopes: { view: readonly string[]; manage: readonly string[] };
  /** Validates a draft into the document fields (throws 400s). Runs before the transaction. */
  fromDraft(draft: unknown, ctx: RequestContext): Promise<Omit<D, ServerFields>> | Omit<D, ServerFields>;
  createdMessages?(doc: D): MessagePayload[];
  actions: ActionHandlers<D>;
  deletedMessages?(doc: D): MessagePayload[];
  /** Whether `dataErasure` is accepted on delete (resources that hold personal data). */
  personalData?: boolean;
  /**
   * Shapes the document for every response (hide secrets, add derived fields). Runs after
   * expansion; the stored document is never changed by it.
   */
  present?(doc: D, ctx: RequestContext): Promise<unknown> | unknown;
  /** Side effects that must follow a committed create, update or delete (never inside the transaction). */
  afterCreate?(doc: D, ctx: RequestContext): Promise<void> | void;
  afterUpdate?(doc: D, actions: readonly UpdateAction[], ctx: RequestContext): Promise<void>;
  /**
   * Writes that must commit with an update (other documents following it): run in the update's
   * transaction `tx`, after the new version is written, not when nothing changed. Throwing rolls
   * the update back with them (the store's `alongside`).
   */
  updatedAlongside?(tx: Queryable, doc: D, actions: readonly UpdateAction[], ctx: RequestContext): Promise<void>;
  afterDelete?(doc: D, ctx: RequestContext): Promise<void>;
  /**
   * Refuses a delete (throws, e.g. 400 ReferenceExists). Runs inside the delete's transaction,
   * after the row was locked FOR UPDATE, version-checked and deleted: throwing rolls it back, and
   * what `tx` reads includes every write committed before this check.
   */
  assertDeletable?(doc: D, tx: Queryable, ctx: RequestContext): Promise<void>;
}

type Params = ResourceParams;
type Query = Record<string, string | string[] | undefined>;

export function registerVersionedRoutes<D extends BaseResource>(app: FastifyInstance, definition: ResourceDefinition<D>, deps: ResourceDeps): void {
  const { documents } = deps;
  const base = `/:projectKey/${definition.path}`;
  const view = { auth: { anyOf: [...definition.scopes.view, ...definition.scopes.manage] } } as const;
  const manage = { auth: { anyOf: definition.scopes.manage } } as const;

  /**
   * Expansion (§4.4.7) and the definition's presentation: what every response goes through. The
   * expansion is checked before any handler runs (`expanding`), so writes never precede a 400.
   */
  const shapeAll = async (request: FastifyRequest, expansion: Expansion, docs: readonly D[]): Promise<unknown[]> => {
    const expanded = await expansion.all(docs);
    if (definition.present === undefined) return expanded;
    const ctx = requestContext(request, documents);
    return Promise.all(expanded.map((doc) => definition.present?.(doc, ctx)));
  };
  const shape = async (request: FastifyRequest, expansion: Expansion, doc: D): Promise<unknown> => (await shapeAll(request, expansion, [doc]))[0];

  const read = expanding(documents, async (request, expansion) => {
    const params = request.params as Params;
    const doc = await documents.get<D>(params.projectKey, definition.typeId, locatorOf(params));
    if (doc === undefined) throw resourceNotFound(notFoundMessage(definition.typeId, locatorOf(params)));
    return shape(request, expansion, doc);
  });

  const update = expanding(documents, async (request, expansion) => {
    const ctx = requestContext(request, documents);
    const { version, actions } = parseUpdateBody(request.body);
    const doc = await documents.update<D>(
      ctx.write,
      definition.typeId,
      locatorOf(request.params as Params),
      version,
      async (current: D, reader: TransactionReader) => {
        const messages = await applyActions(definition.actions, current, actions, { ctx, reader });
        return { doc: current, messages };
      },
      // The template's actions only read (`reader.get`): no lock, two round trips; a write
      // committed meanwhile answers 409 as the lock would have.
      { optimistic: true, ...alongsideOf(definition, actions, ctx) },
    );
    await definition.afterUpdate?.(doc, actions, ctx);
    return shape(request, expansion, doc);
  });

  const remove = expanding(documents, async (request, expansion) => {
    const ctx = requestContext(request, documents);
    const query = request.query as Query;
    const dataErasure = definition.personalData === true ? booleanParam(query, 'dataErasure', false) : false;
    const locator = locatorOf(request.params as Params);
    const version = versionParam(query);
    const options = { dataErasure, ...(definition.deletedMessages === undefined ? {} : { messages: definition.deletedMessages }) };
    const { assertDeletable } = definition;
    const doc =
      assertDeletable === undefined
        ? await documents.delete<D>(ctx.write, definition.typeId, locator, version, options)
        : await documents.db.transaction(async (tx) => {
            const deleted = await documents.within(tx).delete<D>(ctx.write, definition.typeId, locator, version, options);
            await assertDeletable(deleted, tx, ctx);
            return deleted;
          });
    await definition.afterDelete?.(doc, ctx);
    return shape(request, expansion, doc);
  });

  app.get(
    base,
    { config: view },
    expanding(documents, async (request, expansion) => {
      const query = request.query as Query;
      const page = await documents.query<D>((request.params as Params).projectKey, definition.typeId, queryRequest(query));
      if (!expansion.requested && definition.present === undefined) return page;
      return { ...page, results: await shapeAll(request, expansion, page.results) };
    }),
  );

  app.post(
    base,
    { config: manage },
    expanding(documents, async (request, expansion, reply) => {
      const ctx = requestContext(request, documents);
      const fields = await definition.fromDraft(request.body, ctx);
      const doc = await documents.create<D>(ctx.write, definition.typeId, fields, definition.createdMessages);
      await definition.afterCreate?.(doc, ctx);
      return reply.status(201).send(await shape(request, expansion, doc));
    }),
  );

  for (const path of [`${base}/:id`, `${base}/key=:key`]) {
    app.get(path, { config: view }, read);
    app.post(path, { config: manage }, update);
    app.delete(path, { config: manage }, remove);
  }
}

/** The store's `alongside` option running the definition's `updatedAlongside`, when it has one. */
function alongsideOf<D extends BaseResource>(definition: ResourceDefinition<D>, actions: readonly UpdateAction[], ctx: RequestContext): UpdateOptions<D> {
  const { updatedAlongside } = definition;
  if (updatedAlongside === undefined) return {};
  return { alongside: (tx, _previous, next) => updatedAlongside(tx, next, actions, ctx) };
}

export function notFoundMessage(typeId: string, locator: Locator): string {
  const what = 'id' in locator ? `id '${locator.id}'` : `key '${locator.key}'`;
  return `The ${typeId} with ${what} was not found.`;
}
