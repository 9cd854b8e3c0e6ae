import { ApiError, type CustomFields, type Initiator, type KeyReference, type LocalizedString, type Reference } from '@herald/model';
import type { PagedQueryResponse, QueryRequest } from '@herald/store';
import type { Associate, BusinessUnit, BusinessUnitAddress } from '../../resources/business-units/business-unit.js';
import { MANAGE_BUSINESS_UNITS, MANAGE_MY_BUSINESS_UNITS, VIEW_BUSINESS_UNITS } from '../../resources/business-units/scopes.js';
import { CLIENT, visibleTo, type Actor } from '../../resources/business-units/service.js';
import { expectedVersion } from '../../http/version.js';
import type { Customer } from '../../resources/customers/customer.js';
import type { Store } from '../../resources/stores/store.js';
import { hasScope, insufficientScope, requireCustomer, requireScope, VIEW_STORES } from '../access.js';
import type { GraphQLContext } from '../context.js';
import { locatorOf, restActions, restBusinessUnitDraft, type InputObject } from '../inputs.js';
import type { BatchLoader } from '../loaders.js';
import type { IdOrKey, QueryArgs } from './types.js';

/** §2.2 BusinessUnitQueryResult. */
export interface QueryResult {
  offset: number;
  count: number;
  total: number;
  exists: boolean;
  results: BusinessUnit[];
}

export interface UpdateArgs extends IdOrKey {
  version: number;
  actions: readonly InputObject[];
}

export interface DeleteArgs extends IdOrKey {
  version: number;
  personalDataErasure?: boolean | null;
}

/** An empty object stands for `me`: its fields read the customer from the context. */
export type MeRoot = Record<string, never>;

function queryRequest(args: QueryArgs): QueryRequest {
  return {
    where: args.where === undefined || args.where === null ? [] : [args.where],
    sort: args.sort ?? [],
    ...(args.limit === undefined || args.limit === null ? {} : { limit: args.limit }),
    ...(args.offset === undefined || args.offset === null ? {} : { offset: args.offset }),
    withTotal: true,
  };
}

function queryResult(page: PagedQueryResponse<BusinessUnit>, context: GraphQLContext): QueryResult {
  for (const unit of page.results) context.loaders.businessUnitByKey.prime(unit.key, unit);
  const total = page.total ?? page.count;
  return { offset: page.offset, count: page.count, total, exists: total > 0, results: page.results };
}

/** Loads documents in the order of `keys`; a reference to something gone is left out. */
async function loadAll<V>(loader: BatchLoader<V>, keys: readonly string[]): Promise<V[]> {
  const found: V[] = [];
  for (const value of await Promise.all(keys.map((key) => loader.load(key)))) if (value !== undefined) found.push(value);
  return found;
}

function customerActor(context: GraphQLContext): Actor {
  requireScope(context.auth, MANAGE_MY_BUSINESS_UNITS);
  return { kind: 'customer', customerId: requireCustomer(context.auth) };
}

async function findUnit(args: IdOrKey, actor: Actor, context: GraphQLContext): Promise<BusinessUnit | null> {
  const unit = await context.services.businessUnits.find(context.projectKey, locatorOf(args), actor);
  return unit ?? null;
}

async function queryUnits(args: QueryArgs, actor: Actor, context: GraphQLContext): Promise<QueryResult> {
  const page = await context.services.businessUnits.query(context.projectKey, queryRequest(args), actor);
  return queryResult(page, context);
}

const addressesIn = (unit: BusinessUnit, ids: readonly string[]): BusinessUnitAddress[] => unit.addresses.filter((address) => ids.includes(address.id));
const addressWithId = (unit: BusinessUnit, id: string | undefined): BusinessUnitAddress | null =>
  id === undefined ? null : (unit.addresses.find((address) => address.id === id) ?? null);

export const businessUnitQueryResolvers = {
  businessUnit(_root: unknown, args: IdOrKey, context: GraphQLContext): Promise<BusinessUnit | null> {
    requireScope(context.auth, VIEW_BUSINESS_UNITS);
    return findUnit(args, CLIENT, context);
  },
  businessUnits(_root: unknown, args: QueryArgs, context: GraphQLContext): Promise<QueryResult> {
    requireScope(context.auth, VIEW_BUSINESS_UNITS);
    return queryUnits(args, CLIENT, context);
  },
  me(_root: unknown, _args: unknown, context: GraphQLContext): MeRoot {
    requireCustomer(context.auth);
    return {};
  },
};

/** §4.3 "the same two on Me": only units the customer is an associate of (any role). */
export const meResolvers = {
  businessUnit(_me: MeRoot, args: IdOrKey, context: GraphQLContext): Promise<BusinessUnit | null> {
    return findUnit(args, customerActor(context), context);
  },
  businessUnits(_me: MeRoot, args: QueryArgs, context: GraphQLContext): Promise<QueryResult> {
    return queryUnits(args, customerActor(context), context);
  },
};

export const businessUnitMutationResolvers = {
  createBusinessUnit(_root: unknown, args: { draft: InputObject }, context: GraphQLContext): Promise<BusinessUnit> {
    requireScope(context.auth, MANAGE_BUSINESS_UNITS);
    return context.services.businessUnits.create(context.request, restBusinessUnitDraft(args.draft), CLIENT);
  },
  createMyBusinessUnit(_root: unknown, args: { draft: InputObject }, context: GraphQLContext): Promise<BusinessUnit> {
    const actor = customerActor(context);
    return context.services.businessUnits.create(context.request, restBusinessUnitDraft(args.draft), actor);
  },
  updateBusinessUnit(_root: unknown, args: UpdateArgs, context: GraphQLContext): Promise<BusinessUnit> {
    requireScope(context.auth, MANAGE_BUSINESS_UNITS);
    return context.services.businessUnits.update(context.request, locatorOf(args), expectedVersion(args.version), restActions(args.actions), CLIENT);
  },
  updateMyBusinessUnit(_root: unknown, args: UpdateArgs, context: GraphQLContext): Promise<BusinessUnit> {
    const actor = customerActor(context);
    return context.services.businessUnits.update(context.request, locatorOf(args), expectedVersion(args.version), restActions(args.actions), actor);
  },
  deleteBusinessUnit(_root: unknown, args: DeleteArgs, context: GraphQLContext): Promise<BusinessUnit> {
    requireScope(context.auth, MANAGE_BUSINESS_UNITS);
    return context.services.businessUnits.delete(context.request, locatorOf(args), expectedVersion(args.version), args.personalDataErasure === true);
  },
};

/**
 * Units reached through another unit's references are shown by the rules of the query fields:
 * with view_business_units every unit, otherwise a customer's by the My rule (the units `me`
 * answers; REST /me neither reads nor expands the others), so a Buyer of a Division cannot read
 * its Company through `parentUnit`. Another token sees none (no such token reaches a unit today).
 */
function referenceViewer(context: GraphQLContext): Actor | undefined {
  if (hasScope(context.auth, VIEW_BUSINESS_UNITS)) return CLIENT;
  const customerId = context.auth.customerId;
  return customerId === undefined ? undefined : { kind: 'customer', customerId };
}

function mayView(unit: BusinessUnit, context: GraphQLContext): boolean {
  const viewer = referenceViewer(context);
  return viewer !== undefined && visibleTo(unit, viewer);
}

/**
 * `topLevelUnit` is non-null (§2.2), so a Company the token may not see cannot be answered as
 * null like `parentUnit`: it is an error, which graphql-js carries up to the nearest nullable field.
 */
function topLevelUnitHidden(unit: BusinessUnit): ApiError {
  return new ApiError(403, {
    code: 'InsufficientScope',
    message: `The top-level unit '${unit.topLevelUnit.key}' of '${unit.key}' is visible to its associates and with ${VIEW_BUSINESS_UNITS} only; topLevelUnitRef names it.`,
    scope: VIEW_BUSINESS_UNITS,
  });
}

/** §2.2: the fields GraphQL derives from the stored references. */
export const businessUnitFieldResolvers = {
  storesRef: (unit: BusinessUnit): Array<KeyReference<'store'>> => unit.stores,
  /**
   * Store documents need view_stores (or a scope implying it), as on REST, whose reference
   * expansion leaves stores unexpanded without it: a unit's associate must not read stores
   * through GraphQL that REST would not show them. Null like a hidden parentUnit; storesRef
   * still names them.
   */
  async stores(unit: BusinessUnit, _args: unknown, context: GraphQLContext): Promise<Store[] | null> {
    if (!hasScope(context.auth, VIEW_STORES)) return null;
    return loadAll(
      context.loaders.storeByKey,
      unit.stores.map((store) => store.key),
    );
  },
  parentUnitRef: (unit: BusinessUnit): KeyReference | null => unit.parentUnit ?? null,
  /** Null also when the token may not see the parent (referenceViewer); parentUnitRef still names it. */
  async parentUnit(unit: BusinessUnit, _args: unknown, context: GraphQLContext): Promise<BusinessUnit | null> {
    if (unit.parentUnit === undefined) return null;
    const parent = await context.loaders.businessUnitByKey.load(unit.parentUnit.key);
    return parent !== undefined && mayView(parent, context) ? parent : null;
  },
  /**
   * Only the ancestors the token may see, still from the Company down: each is one `me` would
   * answer by key, and the list (of non-null units) has no place for a hidden one.
   */
  async ancestors(unit: BusinessUnit, _args: unknown, context: GraphQLContext): Promise<BusinessUnit[]> {
    const ancestors = await loadAll(
      context.loaders.businessUnitByKey,
      unit.ancestors.map((ancestor) => ancestor.key),
    );
    return ancestors.filter((ancestor) => mayView(ancestor, context));
  },
  topLevelUnitRef: (unit: BusinessUnit): KeyReference => unit.topLevelUnit,
  async topLevelUnit(unit: BusinessUnit, _args: unknown, context: GraphQLContext): Promise<BusinessUnit | undefined> {
    if (unit.topLevelUnit.key === unit.key) return unit;
    const top = await context.loaders.businessUnitByKey.load(unit.topLevelUnit.key);
    if (top !== undefined && !mayView(top, context)) throw topLevelUnitHidden(unit);
    return top;
  },
  shippingAddresses: (unit: BusinessUnit): BusinessUnitAddress[] => addressesIn(unit, unit.shippingAddressIds),
  billingAddresses: (unit: BusinessUnit): BusinessUnitAddress[] => addressesIn(unit, unit.billingAddressIds),
  defaultShippingAddress: (unit: BusinessUnit): BusinessUnitAddress | null => addressWithId(unit, unit.defaultShippingAddressId),
  defaultBillingAddress: (unit: BusinessUnit): BusinessUnitAddress | null => addressWithId(unit, unit.defaultBillingAddressId),
};

export const associateResolvers = {
  customerRef: (associate: Associate): Reference => associate.customer,
  /** Customers are personal data: `view_customers`, or the token's own customer. */
  async customer(associate: Associate, _args: unknown, context: GraphQLContext): Promise<Customer | null> {
    const own = context.auth.customerId === associate.customer.id;
    if (!own && !hasScope(context.auth, 'view_customers')) throw insufficientScope('view_customers', context.projectKey);
    return (await context.loaders.customerById.load(associate.customer.id)) ?? null;
  },
};

export const customFieldsResolvers = {
  typeRef: (custom: CustomFields): Reference => custom.type,
  customFieldsRaw(custom: CustomFields, args: { includeNames?: readonly string[] | null; excludeNames?: readonly string[] | null }) {
    return Object.entries(custom.fields)
      .filter(([name]) => args.includeNames === undefined || args.includeNames === null || args.includeNames.includes(name))
      .filter(([name]) => !(args.excludeNames ?? []).includes(name))
      .map(([name, value]) => ({ name, value }));
  },
};

export const initiatorResolvers = {
  customerRef: (initiator: Initiator): Reference | null => initiator.customer ?? null,
  associateRef: (initiator: Initiator): Reference | null => initiator.associate ?? null,
};

export const storeResolvers = {
  name(store: Store, args: { locale?: string | null }): string | null {
    if (store.name === undefined) return null;
    // Own properties only: a locale named like an Object.prototype member ("constructor") is absent.
    if (typeof args.locale === 'string') return Object.hasOwn(store.name, args.locale) ? (store.name[args.locale] ?? null) : null;
    return Object.values(store.name)[0] ?? null;
  },
  nameAllLocales: (store: Store): Array<{ locale: string; value: string }> | null =>
    store.name === undefined ? null : Object.entries(store.name as LocalizedString).map(([locale, value]) => ({ locale, value })),
};
