import type { Reference } from '@herald/model';
import type { PagedQueryResponse } from '@herald/store';
import { PRODUCT_TYPE_ID, type Product, type ProductData, type ProductVariant } from '../../resources/products/product.js';
import { requireScope } from '../access.js';
import type { GraphQLContext } from '../context.js';
import { locatorOf } from '../inputs.js';
import { categoryOrderHintList, filterVariants, localizedResolvers, stagedVariant, type VariantFilterArgs } from './product-fields.js';
import type { QueryArgs } from './types.js';

/**
 * `product` and `products` (the official Query fields): the Product with both data versions, so
 * they need view_products, as REST's `/products` does (resources/products.raml securedBy).
 */
const VIEW_PRODUCTS = 'view_products';

interface ProductArgs {
  id?: string | null;
  key?: string | null;
  sku?: string | null;
  variantKey?: string | null;
}

interface ProductsArgs extends QueryArgs {
  skus?: readonly string[] | null;
}

interface ProductQueryResult {
  offset: number;
  count: number;
  total: number;
  exists: boolean;
  results: Product[];
}

/** A predicate on a variant field in either data version (the GIN index answers it). */
const anyVariant = (field: 'sku' | 'key', variable: string): string => {
  const variants = `masterVariant(${field} in :${variable}) or variants(${field} in :${variable})`;
  return `masterData(current(${variants}) or staged(${variants}))`;
};

async function productBy(args: ProductArgs, context: GraphQLContext): Promise<Product | null> {
  const { documents } = context.services;
  const byVariant =
    typeof args.sku === 'string'
      ? { field: 'sku' as const, value: args.sku }
      : typeof args.variantKey === 'string'
        ? { field: 'key' as const, value: args.variantKey }
        : undefined;
  if (byVariant === undefined) return (await documents.get<Product>(context.projectKey, PRODUCT_TYPE_ID, locatorOf(args))) ?? null;
  const page = await documents.query<Product>(context.projectKey, PRODUCT_TYPE_ID, {
    where: [anyVariant(byVariant.field, 'values')],
    vars: { values: [byVariant.value] },
    limit: 1,
    withTotal: false,
  });
  return page.results[0] ?? null;
}

function queryResult(page: PagedQueryResponse<Product>): ProductQueryResult {
  const total = page.total ?? page.count;
  return { offset: page.offset, count: page.count, total, exists: total > 0, results: page.results };
}

export const productQueryResolvers = {
  /** One of id, key, sku and variantKey. */
  product(_root: unknown, args: ProductArgs, context: GraphQLContext): Promise<Product | null> {
    requireScope(context.auth, VIEW_PRODUCTS);
    return productBy(args, context);
  },
  async products(_root: unknown, args: ProductsArgs, context: GraphQLContext): Promise<ProductQueryResult> {
    requireScope(context.auth, VIEW_PRODUCTS);
    const where = [...(typeof args.where === 'string' ? [args.where] : []), ...(Array.isArray(args.skus) ? [anyVariant('sku', 'skus')] : [])];
    const page = await context.services.documents.query<Product>(context.projectKey, PRODUCT_TYPE_ID, {
      where,
      ...(Array.isArray(args.skus) ? { vars: { skus: [...args.skus] } } : {}),
      sort: args.sort ?? [],
      ...(typeof args.limit === 'number' ? { limit: args.limit } : {}),
      ...(typeof args.offset === 'number' ? { offset: args.offset } : {}),
      withTotal: true,
    });
    return queryResult(page);
  },
};

const allVariantsOf = (data: ProductData): ProductVariant[] => [data.masterVariant, ...data.variants];
const skusOf = (variants: readonly ProductVariant[]): string[] => variants.flatMap(({ sku }) => (sku === undefined ? [] : [sku]));

export const productFieldResolvers = {
  productTypeRef: (product: Product): Reference => product.productType,
  taxCategoryRef: (product: Product): Reference | null => product.taxCategory ?? null,
  stateRef: (product: Product): Reference | null => product.state ?? null,
  /** The SKUs of the staged data (a superset of what the current data can have once published). */
  skus: (product: Product): string[] => skusOf(allVariantsOf(product.masterData.staged)),
};

/** ProductCatalogData.staged: its variants marked as staged data's (their `price` selects staged StandalonePrices). */
export const productCatalogDataResolvers = {
  staged: ({ staged }: Product['masterData']): ProductData => ({
    ...staged,
    masterVariant: stagedVariant(staged.masterVariant),
    variants: staged.variants.map(stagedVariant),
  }),
};

interface VariantArgs {
  id?: number | null;
  sku?: string | null;
  key?: string | null;
}

function variantBy(data: ProductData, args: VariantArgs): ProductVariant | null {
  const all = allVariantsOf(data);
  if (typeof args.id === 'number') return all.find(({ id }) => id === args.id) ?? null;
  if (typeof args.sku === 'string') return all.find(({ sku }) => sku === args.sku) ?? null;
  if (typeof args.key === 'string') return all.find(({ key }) => key === args.key) ?? null;
  return null;
}

export const productDataResolvers = {
  ...localizedResolvers(),
  categoriesRef: (data: ProductData): Reference[] => data.categories,
  categoryOrderHint: (data: ProductData, args: { categoryId: string }): string | null =>
    Object.hasOwn(data.categoryOrderHints ?? {}, args.categoryId) ? (data.categoryOrderHints?.[args.categoryId] ?? null) : null,
  categoryOrderHints: (data: ProductData) => categoryOrderHintList(data.categoryOrderHints),
  searchKeyword: (data: ProductData, args: { locale: string }) => (Object.hasOwn(data.searchKeywords, args.locale) ? data.searchKeywords[args.locale] : null),
  searchKeywords: (data: ProductData) => Object.entries(data.searchKeywords).map(([locale, searchKeywords]) => ({ locale, searchKeywords })),
  variants: (data: ProductData, args: VariantFilterArgs): ProductVariant[] => filterVariants(data.variants, args),
  allVariants: (data: ProductData, args: VariantFilterArgs): ProductVariant[] => filterVariants(allVariantsOf(data), args),
  variant: (data: ProductData, args: VariantArgs): ProductVariant | null => variantBy(data, args),
  skus: (data: ProductData): string[] => skusOf(allVariantsOf(data)),
};
