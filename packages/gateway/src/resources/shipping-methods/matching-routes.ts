import { invalidInput, invalidOperation, type Clock } from '@herald/model';
import type { DocumentStore } from '@herald/store';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthContext } from '../../auth/types.js';
import { single } from '../../http/query-params.js';
import { impliesAny } from '../../oauth/scopes.js';
import type { Cart } from '../carts/cart.js';
import { stagedOrderActions } from '../order-edits/staged-actions.js';
import { countryCode } from '../shared/address.js';
import { requestContext } from '../shared/context.js';
import { currencyCode } from '../shared/money.js';
import { loadReferenced, referencedResourceNotFound } from '../shared/references.js';
import { expanding, type ResourceParams } from '../shared/route-helpers.js';
import { ZONE_TYPE_ID, type Zone } from '../zones/zone.js';
import { zoneForAddress } from '../zones/zone-for-address.js';
import { cartPredicateSubject, type PredicateCart } from './cart-predicate.js';
import { asMatching, defaultFirst, type CartFacts } from './matching.js';
import { orderResultingFrom } from './matching-orderedit.js';
import { SHIPPING_METHOD_TYPE_ID, type ShippingMethod } from './shipping-method.js';

type Query = Record<string, string | string[] | undefined>;
type Params = ResourceParams & { storeKey?: string };

/** resources/shipping-methods.raml matching-*: view_orders, view_shipping_methods or manage_my_orders (manage scopes imply view). */
const MATCHING_AUTH = { auth: { anyOf: ['view_shipping_methods', 'manage_shipping_methods', 'view_orders', 'manage_orders', 'manage_my_orders'] } } as const;

/** resources/shipping-methods.raml matching-orderedit: view_orders or view_shipping_methods only (no manage_my_orders). */
const ORDER_EDIT_MATCHING_AUTH = { auth: { anyOf: ['view_shipping_methods', 'manage_shipping_methods', 'view_orders', 'manage_orders'] } } as const;

/** More methods than one Zone's answer could reasonably hold; the answer is one page. */
const MAX_MATCHES = 500;

interface Where {
  country: string;
  state?: string | undefined;
}

/** The Zones holding the country (one `@?` the GIN index answers), then the most specific by state. */
async function zoneOf(documents: DocumentStore, projectKey: string, where: Where): Promise<Zone | undefined> {
  const found = await documents.db.query<{ doc: Zone }>(`SELECT doc FROM resources WHERE project_key = $1 AND type_id = $2 AND doc @? $3::jsonpath`, [
    projectKey,
    ZONE_TYPE_ID,
    `$.locations[*] ? (@.country == ${JSON.stringify(where.country)})`,
  ]);
  return zoneForAddress(
    found.rows.map((row) => row.doc),
    where,
  );
}

/** Active methods with a ZoneRate for the Zone, oldest first (the answer's order before defaults go first). */
async function methodsFor(documents: DocumentStore, projectKey: string, zoneId: string): Promise<ShippingMethod[]> {
  const found = await documents.db.query<{ doc: ShippingMethod }>(
    `SELECT doc FROM resources WHERE project_key = $1 AND type_id = $2 AND doc @> '{"active": true}'::jsonb AND doc @? $3::jsonpath
      ORDER BY doc ->> 'createdAt', id LIMIT ${MAX_MATCHES}`,
    [projectKey, SHIPPING_METHOD_TYPE_ID, `$.zoneRates[*] ? (@.zone.id == ${JSON.stringify(zoneId)})`],
  );
  return found.rows.map((row) => row.doc);
}

/** Store restriction (ShippingMethod.stores): an empty list applies to every cart, else the cart's Store must be listed. */
function availableIn(method: ShippingMethod, storeKey: string | undefined): boolean {
  return method.stores.length === 0 || (storeKey !== undefined && method.stores.some((store) => store.key === storeKey));
}

/** What matching reads of a cart, or of the order an order edit results in (Order has the same fields). */
type MatchedCart = PredicateCart & Pick<Cart, 'shippingRateInput' | 'store'>;

async function matching(
  documents: DocumentStore,
  projectKey: string,
  where: Where,
  currency: string | undefined,
  cart?: MatchedCart,
): Promise<ShippingMethod[]> {
  const zone = await zoneOf(documents, projectKey, where);
  if (zone === undefined) return [];
  const facts: CartFacts | undefined = cart === undefined ? undefined : cartFacts(cart);
  const methods = (await methodsFor(documents, projectKey, zone.id)).filter((method) => cart === undefined || availableIn(method, cart.store?.key));
  return defaultFirst(methods.flatMap((method) => asMatching(method, zone.id, currency, facts) ?? []));
}

function cartFacts(cart: MatchedCart): CartFacts {
  return {
    currency: cart.totalPrice.currencyCode,
    totalCentAmount: cart.totalPrice.centAmount,
    shippingRateInput: cart.shippingRateInput,
    subject: cartPredicateSubject(cart),
  };
}

function required(query: Query, name: string): string {
  const value = single(query, name);
  if (value === undefined || value === '') throw invalidInput(`The query parameter '${name}' is required.`, { field: name });
  return value;
}

/** The Location of matching-location and matching-orderedit: `country` required, `state` optional. */
function locationOf(query: Query): Where {
  return { country: countryCode(required(query, 'country'), 'country'), state: single(query, 'state') };
}

function page(results: readonly unknown[]) {
  return { limit: MAX_MATCHES, offset: 0, count: results.length, total: results.length, results };
}

/**
 * manage_my_orders serves matching-cart for the token's own carts only: a customer's or anonymous
 * session's token never learns about another buyer's cart (resources/shipping-methods.raml lists
 * manage_my_orders beside the project-wide scopes, §5.1).
 */
function mayRead(auth: AuthContext | undefined, cart: Cart): boolean {
  if (auth === undefined || impliesAny(auth.scopes, ['view_orders', 'view_shipping_methods'])) return true;
  return (auth.customerId !== undefined && cart.customerId === auth.customerId) || (auth.anonymousId !== undefined && cart.anonymousId === auth.anonymousId);
}

/** The cart of `cartId`, in the Store of an in-store path; its shipping address decides the Zone. */
async function cartOf(request: FastifyRequest, documents: DocumentStore): Promise<Cart & { shippingAddress: Where }> {
  const params = request.params as Params;
  const cart = await loadReferenced<Cart>((typeId, locator) => documents.get(params.projectKey, typeId, locator), 'cart', {
    id: required(request.query as Query, 'cartId'),
  });
  if (!mayRead(request.auth, cart)) throw referencedResourceNotFound('cart', { id: cart.id });
  if (params.storeKey !== undefined && cart.store?.key !== params.storeKey) {
    throw invalidInput(`The cart '${cart.id}' is not in the Store '${params.storeKey}'.`, { field: 'cartId' });
  }
  const address = cart.shippingAddress;
  if (address === undefined) throw invalidOperation(`The cart '${cart.id}' has no shipping address; matching needs one.`);
  return { ...cart, shippingAddress: address };
}

/**
 * GET /shipping-methods/matching-location, /matching-cart, /matching-orderedit and
 * /in-store/key={storeKey}/shipping-methods/matching-cart (resources/shipping-methods.raml,
 * resources/in-store/shipping-methods-in-store.raml). Not served: matching-cart-location.
 * matching-cart evaluates each method's cart predicate against the cart (cart-predicate.ts),
 * matching-orderedit against the order the edit results in; `clock` runs that edit's staged actions.
 */
export function registerMatchingRoutes(app: FastifyInstance, documents: DocumentStore, clock: Clock): void {
  app.get(
    '/:projectKey/shipping-methods/matching-location',
    { config: MATCHING_AUTH },
    expanding(documents, async (request, expansion) => {
      const query = request.query as Query;
      const where = locationOf(query);
      const currencyParam = single(query, 'currency');
      const currency = currencyParam === undefined ? undefined : currencyCode(currencyParam, 'currency');
      const methods = await matching(documents, (request.params as Params).projectKey, where, currency);
      return page(await expansion.all(methods));
    }),
  );

  const matchingCart = expanding(documents, async (request, expansion) => {
    const cart = await cartOf(request, documents);
    const methods = await matching(documents, (request.params as Params).projectKey, cart.shippingAddress, cart.totalPrice.currencyCode, cart);
    return page(await expansion.all(methods));
  });
  app.get('/:projectKey/shipping-methods/matching-cart', { config: MATCHING_AUTH }, matchingCart);
  app.get('/:projectKey/in-store/key=:storeKey/shipping-methods/matching-cart', { config: MATCHING_AUTH }, matchingCart);

  // matching-orderedit: the Location asked for, in the currency of the order the edit results in.
  const accepted = stagedOrderActions(clock);
  app.get(
    '/:projectKey/shipping-methods/matching-orderedit',
    { config: ORDER_EDIT_MATCHING_AUTH },
    expanding(documents, async (request, expansion) => {
      const query = request.query as Query;
      const where = locationOf(query);
      const order = await orderResultingFrom(required(query, 'orderEditId'), accepted, requestContext(request, documents));
      const methods = await matching(documents, (request.params as Params).projectKey, where, order.totalPrice.currencyCode, order);
      return page(await expansion.all(methods));
    }),
  );
}
