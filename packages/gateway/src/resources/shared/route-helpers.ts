import { assertExpandPaths, expandReferencesInMany, type DocumentStore, type Locator, type ReferenceLoader } from '@herald/store';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthContext } from '../../auth/types.js';
import { repeated } from '../../http/query-params.js';
import { implies } from '../../oauth/scopes.js';

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
  ['cart-discount', 'view_cart_discounts'],
  ['category', 'view_categories'],
  ['channel', 'view_channels'],
  ['customer', 'view_customers'],
  ['customer-group', 'view_customer_groups'],
  ['discount-code', 'view_discount_codes'],
  ['discount-group', 'view_cart_discounts'],
  ['inventory-entry', 'view_products'],
  ['order', 'view_orders'],
  ['order-edit', 'view_order_edits'],
  ['payment', 'view_payments'],
  ['product', 'view_products'],
  ['product-discount', 'view_product_discounts'],
  ['product-selection', 'view_product_selections'],
  ['product-type', 'view_product_types'],
  ['quote', 'view_quotes'],
  ['quote-request', 'view_quote_requests'],
  ['review', 'view_products'],
  ['shipping-method', 'view_shipping_methods'],
  ['shopping-list', 'view_shopping_lists'],
  ['staged-quote', 'view_staged_quotes'],
  ['standalone-price', 'view_standalone_prices'],
  ['state', 'view_states'],
  ['store', 'view_stores'],
  ['tax-category', 'view_tax_categories'],
  ['type', 'view_types'],
  ['zone', 'view_zones'],
]);

/**
 * Stored fields that no response shows, per type: a Product Selection keeps its assignments in its
 * document, served by `/product-selections/{id}/products` (product-selections/product-selection.ts).
 */
const STORED_ONLY_FIELDS: ReadonlyMap<string, readonly string[]> = new Map([['product-selection', ['assignments']]]);

async function loadShown(documents: DocumentStore, projectKey: string, typeId: string, ids: readonly string[]) {
  const found = await documents.getMany(projectKey, typeId, ids);
  const hidden = STORED_ONLY_FIELDS.get(typeId);
  if (hidden === undefined) return found;
  return new Map([...found].map(([id, doc]) => [id, Object.fromEntries(Object.entries(doc).filter(([field]) => !hidden.includes(field))) as typeof doc]));
}

/**
 * Loads what `auth` may see; anything else is left unexpanded like a missing resource (§7: an
 * expansion failure is no error). A token sees its own customer without `view_customers`, as in
 * GraphQL (`associates.customer`).
 */
export function expansionLoader(documents: DocumentStore, projectKey: string, auth: AuthContext | undefined): ReferenceLoader {
  return async (typeId, ids) => {
    const scope = EXPANSION_VIEW_SCOPES.get(typeId);
    if (scope === undefined || auth === undefined) return new Map();
    if (implies(auth.scopes, scope)) return loadShown(documents, projectKey, typeId, ids);
    const own = auth.customerId;
    if (typeId === 'customer' && own !== undefined && ids.includes(own)) return documents.getMany(projectKey, typeId, [own]);
    return new Map();
  };
}

/**
 * §4.4.7 reference expansion with the request's `expand` paths, checked when it is made. A page
 * is expanded at once (one load per type and level); without `expand` documents come back as
 * they are.
 */
export interface Expansion {
  /** Whether the request names any path. */
  readonly requested: boolean;
  all<D>(docs: readonly D[]): Promise<D[]>;
  one<D>(doc: D): Promise<D>;
}

/** Refuses (400) a parameter list the store would refuse, by the store's own rule (the count). */
function requestExpansion(request: FastifyRequest, documents: DocumentStore): Expansion {
  const paths = repeated(request.query as Record<string, string | string[] | undefined>, 'expand');
  assertExpandPaths(paths);
  if (paths.length === 0) return { requested: false, all: async (docs) => [...docs], one: async (doc) => doc };
  const loader = expansionLoader(documents, (request.params as ResourceParams).projectKey, request.auth);
  const all = <D>(docs: readonly D[]): Promise<D[]> => expandReferencesInMany(docs, paths, loader);
  return { requested: true, all, one: async (doc) => (await all([doc]))[0] ?? doc };
}

/**
 * Wraps a handler whose answer is expanded, and the only way a route gets an Expansion: the
 * `expand` parameters are checked before the handler runs, so a create, update or delete is never
 * committed and then answered with a 400 for its `expand` list (with its messages already in the
 * outbox).
 */
export function expanding<R>(
  documents: DocumentStore,
  handler: (request: FastifyRequest, expansion: Expansion, reply: FastifyReply) => Promise<R>,
): (request: FastifyRequest, reply: FastifyReply) => Promise<R> {
  return async (request, reply) => handler(request, requestExpansion(request, documents), reply);
}
