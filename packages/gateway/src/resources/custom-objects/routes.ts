import { ApiError, concurrentModification, resourceNotFound } from '@herald/model';
import { containerKey, type DocumentStore, type Locator, type ServerFields, type WriteContext } from '@herald/store';
import type { FastifyInstance } from 'fastify';
import { booleanParam, queryRequest, single, versionParam } from '../../http/query-params.js';
import { requestContext, type ResourceDeps } from '../shared/context.js';
import { expanding } from '../shared/route-helpers.js';
import { CUSTOM_OBJECT_TYPE_ID, customObjectDraft, identifier, type CustomObject, type CustomObjectDraft } from './custom-object.js';

type Query = Record<string, string | string[] | undefined>;
type Params = { projectKey: string; container?: string; key?: string };

/** reference resources/custom-objects.raml: any of these scopes reads, any of the manage ones writes. */
const VIEW_SCOPES = ['view_products', 'view_orders', 'view_customers', 'view_key_value_documents'];
const MANAGE_SCOPES = ['manage_products', 'manage_orders', 'manage_customers', 'manage_key_value_documents'];

function locatorOf(params: Params): Locator {
  return { key: containerKey(identifier(params.container, 'container'), identifier(params.key, 'key')) };
}

function notFound(params: Params): ApiError {
  return resourceNotFound(`The CustomObject with container '${params.container ?? ''}' and key '${params.key ?? ''}' was not found.`);
}

/**
 * Create or update (reference: POST /custom-objects): a new container/key is created (201); an
 * existing one gets the draft's value as a new version (200). With `version`, only that version is
 * replaced, and `version: 0` only creates; without it, a write committed since the object was read
 * is still a 409, never silently overwritten.
 */
async function createOrReplace(documents: DocumentStore, write: WriteContext, draft: CustomObjectDraft): Promise<{ created: boolean; doc: CustomObject }> {
  const locator = { key: containerKey(draft.container, draft.key) };
  const existing = await documents.get<CustomObject>(write.projectKey, CUSTOM_OBJECT_TYPE_ID, locator);
  if (existing === undefined) {
    if (draft.version !== undefined && draft.version !== 0) throw concurrentModification(0, draft.version);
    return { created: true, doc: await create(documents, write, draft) };
  }
  if (draft.version === 0) throw concurrentModification(existing.version, 0);
  const doc = await documents.update<CustomObject>(write, CUSTOM_OBJECT_TYPE_ID, locator, draft.version ?? existing.version, async (current) => {
    current.value = draft.value;
    return { doc: current };
  });
  return { created: false, doc };
}

async function create(documents: DocumentStore, write: WriteContext, draft: CustomObjectDraft): Promise<CustomObject> {
  const fields: Omit<CustomObject, ServerFields> = { container: draft.container, key: draft.key, value: draft.value };
  try {
    return await documents.create<CustomObject>(write, CUSTOM_OBJECT_TYPE_ID, fields);
  } catch (error) {
    // Another request created the same container/key since the read: a concurrent modification.
    if (error instanceof ApiError && error.code === 'DuplicateField') throw concurrentModification(1, draft.version ?? 0);
    throw error;
  }
}

/**
 * `/{projectKey}/custom-objects` (reference resources/custom-objects.raml): create or update,
 * query (all, or within a container), get and delete by container and key. Custom objects have no
 * update actions and no messages; their change notifications name `key-value-document`.
 */
export function registerCustomObjectRoutes(app: FastifyInstance, { documents }: ResourceDeps): void {
  const base = '/:projectKey/custom-objects';
  const view = { auth: { anyOf: [...VIEW_SCOPES, ...MANAGE_SCOPES] } } as const;
  const manage = { auth: { anyOf: MANAGE_SCOPES } } as const;

  app.post(
    base,
    { config: manage },
    expanding(documents, async (request, expansion, reply) => {
      const { write } = requestContext(request, documents);
      const { created, doc } = await createOrReplace(documents, write, customObjectDraft(request.body));
      return reply.status(created ? 201 : 200).send(await expansion.one(doc));
    }),
  );

  app.get(
    base,
    { config: view },
    expanding(documents, async (request, expansion) => {
      const params = request.params as Params;
      const page = await documents.query<CustomObject>(params.projectKey, CUSTOM_OBJECT_TYPE_ID, queryRequest(request.query as Query));
      return expansion.requested ? { ...page, results: await expansion.all(page.results) } : page;
    }),
  );

  app.get(
    `${base}/:container`,
    { config: view },
    expanding(documents, async (request, expansion) => {
      const params = request.params as Params;
      const container = identifier(params.container, 'container');
      const query = queryRequest(request.query as Query);
      // The pattern admits no quote or backslash, so the container is a safe string literal.
      const page = await documents.query<CustomObject>(params.projectKey, CUSTOM_OBJECT_TYPE_ID, {
        ...query,
        where: [`container = "${container}"`, ...(query.where ?? [])],
      });
      return expansion.requested ? { ...page, results: await expansion.all(page.results) } : page;
    }),
  );

  app.get(
    `${base}/:container/:key`,
    { config: view },
    expanding(documents, async (request, expansion) => {
      const params = request.params as Params;
      return expansion.one(await current(documents, params, locatorOf(params)));
    }),
  );

  app.delete(
    `${base}/:container/:key`,
    { config: manage },
    expanding(documents, async (request, expansion) => {
      const params = request.params as Params;
      const { write } = requestContext(request, documents);
      const locator = locatorOf(params);
      // `version` is optional here (reference): without it, whatever version is there is deleted.
      const query = request.query as Query;
      const version = single(query, 'version') === undefined ? (await current(documents, params, locator)).version : versionParam(query);
      const dataErasure = booleanParam(query, 'dataErasure', false);
      return expansion.one(await documents.delete<CustomObject>(write, CUSTOM_OBJECT_TYPE_ID, locator, version, { dataErasure }));
    }),
  );
}

async function current(documents: DocumentStore, params: Params, locator: Locator): Promise<CustomObject> {
  const doc = await documents.get<CustomObject>(params.projectKey, CUSTOM_OBJECT_TYPE_ID, locator);
  if (doc === undefined) throw notFound(params);
  return doc;
}
