import type { Reference } from '@herald/model';
import type { PagedQueryResponse } from '@herald/store';
import { productsOfSelection, queryAssignments } from '../../resources/product-selections/assignment-query.js';
import {
  PRODUCT_SELECTION_TYPE_ID,
  type ProductSelection,
  type VariantExclusion,
  type VariantSelection,
} from '../../resources/product-selections/product-selection.js';
import { PRODUCT_TYPE_ID, type Product } from '../../resources/products/product.js';
import type { ProductSelectionSetting, Store } from '../../resources/stores/store.js';
import { hasScope, requireScope } from '../access.js';
import type { GraphQLContext } from '../context.js';
import { locatorOf } from '../inputs.js';
import { localizedResolvers, type LocaleArgs } from './product-fields.js';
import type { IdOrKey, QueryArgs } from './types.js';

/** resources/product-selections.raml: every read is securedBy view_product_selections. */
const VIEW_PRODUCT_SELECTIONS = 'view_product_selections';
/** A Product document shows both data versions: REST's `/products` needs view_products. */
const VIEW_PRODUCTS = 'view_products';

interface QueryResult<T> {
  offset: number;
  count: number;
  total: number;
  exists: boolean;
  results: T[];
}

function queryResult<T>(page: PagedQueryResponse<T>): QueryResult<T> {
  const total = page.total ?? page.count;
  return { offset: page.offset, count: page.count, total, exists: total > 0, results: page.results };
}

/** The paging and predicates of a query field, as the store's QueryRequest takes them. */
function queryRequest(args: QueryArgs) {
  return {
    where: typeof args.where === 'string' ? [args.where] : [],
    sort: args.sort ?? [],
    ...(typeof args.limit === 'number' ? { limit: args.limit } : {}),
    ...(typeof args.offset === 'number' ? { offset: args.offset } : {}),
    withTotal: true,
  };
}

/** An AssignedProductReference row of `productRefs`. */
interface ProductOfSelection {
  product: Reference<'product'>;
  variantSelection?: VariantSelection;
  variantExclusion?: VariantExclusion;
}

export const productSelectionQueryResolvers = {
  async productSelection(_root: unknown, args: IdOrKey, context: GraphQLContext): Promise<ProductSelection | null> {
    requireScope(context.auth, VIEW_PRODUCT_SELECTIONS);
    return (await context.services.documents.get<ProductSelection>(context.projectKey, PRODUCT_SELECTION_TYPE_ID, locatorOf(args))) ?? null;
  },
  async productSelections(_root: unknown, args: QueryArgs, context: GraphQLContext): Promise<QueryResult<ProductSelection>> {
    requireScope(context.auth, VIEW_PRODUCT_SELECTIONS);
    return queryResult(await context.services.documents.query<ProductSelection>(context.projectKey, PRODUCT_SELECTION_TYPE_ID, queryRequest(args)));
  },
};

const { name, nameAllLocales } = localizedResolvers();

export const productSelectionFieldResolvers = {
  name: (selection: ProductSelection, args: LocaleArgs) => name?.(selection, args) ?? null,
  nameAllLocales: (selection: ProductSelection) => nameAllLocales?.(selection, {}) ?? [],
  /** The selection's products, as `/product-selections/{id}/products` pages them (deleted products left out). */
  async productRefs(selection: ProductSelection, args: QueryArgs, context: GraphQLContext): Promise<QueryResult<ProductOfSelection>> {
    const { documents } = context.services;
    return queryResult(await queryAssignments<ProductOfSelection>(documents.db, productsOfSelection(context.projectKey, selection.id), queryRequest(args)));
  },
};

export const productOfSelectionResolvers = {
  productRef: (assignment: ProductOfSelection): Reference => assignment.product,
  async product(assignment: ProductOfSelection, _args: unknown, context: GraphQLContext): Promise<Product | null> {
    if (!hasScope(context.auth, VIEW_PRODUCTS)) return null;
    return (await context.services.documents.get<Product>(context.projectKey, PRODUCT_TYPE_ID, { id: assignment.product.id })) ?? null;
  },
};

/** The deprecated `inclusion`/`exclusion` names are stored as given; they mean includeOnly/includeAllExcept. */
export const productVariantSelectionResolvers = {
  resolveType: (selection: VariantSelection): string =>
    selection.type === 'includeOnly' || selection.type === 'inclusion' ? 'ProductVariantSelectionIncludeOnly' : 'ProductVariantSelectionIncludeAllExcept',
};

export const storeProductSelectionResolvers = {
  productSelections: (store: Store): ProductSelectionSetting[] => store.productSelections ?? [],
};

export const productSelectionSettingResolvers = {
  productSelectionRef: (setting: ProductSelectionSetting): Reference => setting.productSelection,
  async productSelection(setting: ProductSelectionSetting, _args: unknown, context: GraphQLContext): Promise<ProductSelection | null> {
    if (!hasScope(context.auth, VIEW_PRODUCT_SELECTIONS)) return null;
    const { documents } = context.services;
    return (await documents.get<ProductSelection>(context.projectKey, PRODUCT_SELECTION_TYPE_ID, { id: setting.productSelection.id })) ?? null;
  },
};
