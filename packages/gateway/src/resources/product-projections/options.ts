import { invalidInput } from '@herald/model';
import type { DocumentStore } from '@herald/store';
import type { AuthContext } from '../../auth/types.js';
import { booleanParam, repeated, single } from '../../http/query-params.js';
import { oauthError } from '../../oauth/errors.js';
import { implies } from '../../oauth/scopes.js';
import { countryCode } from '../shared/address.js';
import { currencyCode } from '../shared/money.js';
import type { PriceCriteria } from '../shared/price-selection.js';
import type { Store } from '../stores/store.js';

export type RawQuery = Record<string, string | string[] | undefined>;

/** How a request projects products (traits projection-selecting, price-selecting, locale-projecting, store-projecting). */
export interface ProjectionOptions {
  staged: boolean;
  /** localeProjection, else the store's languages; undefined keeps every locale. */
  locales?: readonly string[];
  price?: PriceCriteria;
  store?: Store;
}

/** Locale: a language, optionally with a region (types/common/Locale.raml, BCP 47 as Herald checks it elsewhere). */
const LOCALE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/**
 * `staged=true` (traits/projection-selecting.raml): "only for API Clients that have the
 * view_products scope"; a client with `view_published_products` alone gets 403.
 */
function stagedParam(query: RawQuery, auth: AuthContext | undefined): boolean {
  const staged = booleanParam(query, 'staged', false);
  if (staged && !implies(auth?.scopes ?? new Set(), 'view_products')) {
    throw oauthError('insufficient_scope', `staged=true needs the scope view_products:${auth?.projectKey ?? ''}.`);
  }
  return staged;
}

function localeParam(query: RawQuery): string[] | undefined {
  const locales = repeated(query, 'localeProjection');
  for (const locale of locales) {
    if (!LOCALE.test(locale)) throw invalidInput(`'localeProjection' must be a Locale; '${locale}' is not.`, { parameter: 'localeProjection' });
  }
  return locales.length === 0 ? undefined : locales;
}

/** The reference bounds a customer's assignments at 500; a request names at most as many groups. */
export const MAX_PRICE_CUSTOMER_GROUPS = 500;

/** priceCustomerGroupAssignments (traits/price-selecting.raml): repeated, one CustomerGroup id each. */
function priceCustomerGroupAssignments(query: RawQuery): string[] | undefined {
  const ids = repeated(query, 'priceCustomerGroupAssignments');
  if (ids.length === 0) return undefined;
  if (ids.length > MAX_PRICE_CUSTOMER_GROUPS || ids.some((id) => id.trim() === '')) {
    throw invalidInput(`'priceCustomerGroupAssignments' must name 1 to ${MAX_PRICE_CUSTOMER_GROUPS} customer group ids.`, {
      parameter: 'priceCustomerGroupAssignments',
    });
  }
  return ids;
}

/**
 * priceCountry, priceCustomerGroup, priceCustomerGroupAssignments and priceChannel "can be used
 * only in conjunction with the priceCurrency parameter".
 */
function priceParams(query: RawQuery): PriceCriteria | undefined {
  const currency = single(query, 'priceCurrency');
  const country = single(query, 'priceCountry');
  const customerGroupId = single(query, 'priceCustomerGroup');
  const customerGroupIds = priceCustomerGroupAssignments(query);
  const channelId = single(query, 'priceChannel');
  if (currency === undefined) {
    const dependents = { priceCountry: country, priceCustomerGroup: customerGroupId, priceCustomerGroupAssignments: customerGroupIds, priceChannel: channelId };
    const dependent = Object.entries(dependents).find(([, value]) => value !== undefined);
    if (dependent !== undefined) throw invalidInput(`The parameter '${dependent[0]}' can only be used with 'priceCurrency'.`, { parameter: dependent[0] });
    return undefined;
  }
  const criteria: PriceCriteria = { currency: currencyCode(currency, 'priceCurrency') };
  if (country !== undefined) criteria.country = countryCode(country, 'priceCountry');
  if (customerGroupId !== undefined) criteria.customerGroupId = customerGroupId;
  if (customerGroupIds !== undefined) criteria.customerGroupIds = customerGroupIds;
  if (channelId !== undefined) criteria.channelId = channelId;
  return criteria;
}

/** `storeProjection`: "key of an existing Store" (400 InvalidInput when there is none). */
async function storeParam(query: RawQuery, documents: DocumentStore, projectKey: string): Promise<Store | undefined> {
  const key = single(query, 'storeProjection');
  if (key === undefined) return undefined;
  const store = await documents.get<Store>(projectKey, 'store', { key });
  if (store === undefined) throw invalidInput(`The store with key '${key}' given as storeProjection was not found.`, { parameter: 'storeProjection' });
  return store;
}

/** Where the options come from: the query string (or a search's form body), the token, the project. */
export interface OptionsSource {
  query: RawQuery;
  auth: AuthContext | undefined;
  documents: DocumentStore;
  projectKey: string;
  /** The in-store route's store, which wins over `storeProjection`. */
  inStore?: Store;
}

/** The projection options of a request. */
export async function projectionOptions({ query, auth, documents, projectKey, inStore }: OptionsSource): Promise<ProjectionOptions> {
  const options: ProjectionOptions = { staged: stagedParam(query, auth) };
  const store = inStore ?? (await storeParam(query, documents, projectKey));
  const locales = localeParam(query) ?? (store !== undefined && store.languages.length > 0 ? store.languages : undefined);
  if (locales !== undefined) options.locales = locales;
  const price = priceParams(query);
  if (price !== undefined) options.price = price;
  if (store !== undefined) options.store = store;
  return options;
}
