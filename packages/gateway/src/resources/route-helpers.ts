import { expandReferencesInMany, type DocumentStore, type Locator, type ReferenceLoader } from '@herald/store';
import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../auth/types.js';
import { repeated } from '../http/query-params.js';
import { implies } from '../oauth/scopes.js';

/** Path parameters of a single-resource route: `/{id}` or `/key={key}`. */
export type ResourceParams = { projectKey: string; id?: string; key?: string };

export function locatorOf(params: ResourceParams): Locator {
  return params.key !== undefined ? { key: params.key } : { id: params.id ?? '' };
}

/**
 * The scope a token needs to see an expanded reference of each type: the view scope its own
 * routes and GraphQL ask for (`manage_X` and `manage_project` imply it). Expansion must not be a
 * way around them, e.g. an associate's Customer (personal data) read through a business unit.
 * Types not listed are never expanded: the stored documents of subscriptions hold destination
 * secrets that only their own routes hide, and references (custom fields of type Reference) may
 * name any type id.
 */
const EXPANSION_VIEW_SCOPES: ReadonlyMap<string, string> = new Map([
  ['business-unit', 'view_business_units'],
  ['cart', 'view_orders'],
  ['customer', 'view_customers'],
  ['quote-request', 'view_quote_requests'],
  ['state', 'view_states'],
  ['store', 'view_stores'],
  ['type', 'view_types'],
]);

/**
 * Loads what `auth` may see; anything else is left unexpanded like a missing resource (§7: an
 * expansion failure is no error). A token sees its own customer without `view_customers`, as in
 * GraphQL (`associates.customer`).
 */
export function expansionLoader(documents: DocumentStore, projectKey: string, auth: AuthContext | undefined): ReferenceLoader {
  return async (typeId, ids) => {
    const scope = EXPANSION_VIEW_SCOPES.get(typeId);
    if (scope === undefined || auth === undefined) return new Map();
    if (implies(auth.scopes, scope)) return documents.getMany(projectKey, typeId, ids);
    const own = auth.customerId;
    if (typeId === 'customer' && own !== undefined && ids.includes(own)) return documents.getMany(projectKey, typeId, [own]);
    return new Map();
  };
}

/**
 * §4.4.7 reference expansion of the request's `expand` paths, a page at once (one load per type
 * and level); the path limit applies to empty pages too. Without `expand` the documents are
 * returned as they are.
 */
export async function expandForRequest<D>(request: FastifyRequest, documents: DocumentStore, docs: readonly D[]): Promise<D[]> {
  const paths = repeated(request.query as Record<string, string | string[] | undefined>, 'expand');
  if (paths.length === 0) return [...docs];
  const projectKey = (request.params as ResourceParams).projectKey;
  return expandReferencesInMany(docs, paths, expansionLoader(documents, projectKey, request.auth));
}
