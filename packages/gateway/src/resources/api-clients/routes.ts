import { invalidInput, requiredField, resourceNotFound } from '@herald/model';
import { parsePaging } from '@herald/store';
import type { FastifyInstance } from 'fastify';
import { single } from '../../http/query-params.js';
import type { ApiClientRecord, ApiClientStore } from '../../oauth/api-client-store.js';
import { validateClientScopes } from '../../oauth/client-scopes.js';
import { oauthError } from '../../oauth/errors.js';
import { implies, parseProjectScope } from '../../oauth/scopes.js';
import { optionalString } from '../shared/validation.js';

export interface ApiClientRoutesDeps {
  clients: ApiClientStore;
  /** Forgets validated tokens of a deleted client in this process (revocation takes effect at once). */
  forgetClientTokens(clientId: string): void;
}

/** An API client as answered: never the secret (only the create response carries it), never its hash. */
export interface ApiClientView {
  id: string;
  name: string;
  scope: string;
  createdAt: string;
  secret?: string;
}

function view(client: ApiClientRecord): ApiClientView {
  return { id: client.id, name: client.name, scope: client.scopes.join(' '), createdAt: client.createdAt };
}

type Params = { projectKey: string; id: string };
type Query = Record<string, string | string[] | undefined>;

const MANAGE = { auth: { anyOf: ['manage_api_clients'] } } as const;

/**
 * `/{projectKey}/api-clients` (§5.2): create, get, query, delete. A caller can only hand out
 * scopes its own token holds (`manage_project` holds them all), so `manage_api_clients` alone
 * cannot mint a more powerful client.
 */
export function registerApiClientRoutes(app: FastifyInstance, deps: ApiClientRoutesDeps): void {
  app.post('/:projectKey/api-clients', { config: MANAGE }, async (request, reply) => {
    const { projectKey } = request.params as Params;
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidInput('The ApiClientDraft must be a JSON object.');
    const draft = body as Record<string, unknown>;
    const name = optionalString(draft.name, 'name', 256);
    if (name === undefined || name.trim() === '') throw requiredField('name');
    const scopes = validateClientScopes(draft.scope, projectKey);
    const held = request.auth?.scopes ?? new Set<string>();
    for (const scope of scopes) {
      const parsed = parseProjectScope(scope);
      if (parsed !== undefined && !implies(held, parsed.name)) {
        throw oauthError('insufficient_scope', `The access token does not hold the scope '${scope}' it would hand out.`);
      }
    }
    const { client, secret } = await deps.clients.create({ projectKey, name, scopes });
    return reply.status(201).send({ ...view(client), secret });
  });

  app.get('/:projectKey/api-clients', { config: MANAGE }, async (request) => {
    const { projectKey } = request.params as Params;
    const query = request.query as Query;
    const paging = parsePaging({ limit: single(query, 'limit'), offset: single(query, 'offset'), withTotal: single(query, 'withTotal') });
    const { clients, total } = await deps.clients.list(projectKey, paging.limit, paging.offset);
    return {
      limit: paging.limit,
      offset: paging.offset,
      count: clients.length,
      ...(paging.withTotal ? { total } : {}),
      results: clients.map(view),
    };
  });

  app.get('/:projectKey/api-clients/:id', { config: MANAGE }, async (request) => {
    const { projectKey, id } = request.params as Params;
    const client = await deps.clients.getInProject(projectKey, id);
    if (client === undefined) throw resourceNotFound(`The API client with id '${id}' was not found.`);
    return view(client);
  });

  app.delete('/:projectKey/api-clients/:id', { config: MANAGE }, async (request) => {
    const { projectKey, id } = request.params as Params;
    const deleted = await deps.clients.delete(projectKey, id);
    if (deleted === undefined) throw resourceNotFound(`The API client with id '${id}' was not found.`);
    deps.forgetClientTokens(deleted.id);
    return view(deleted);
  });
}
