import { ApiError, invalidInput, requiredField, systemClock, type BaseResource } from '@herald/model';
import type { DocumentStore } from '@herald/store';
import type { FastifyInstance } from 'fastify';
import { activeDiscounts } from '../discounts/active-discounts.js';
import { discountedPriceFor, type ProductPredicateKeys } from '../discounts/product-pricing.js';
import { allVariants, PRODUCT_TYPE_ID, type Price, type Product } from '../products/product.js';
import { requestContext } from '../shared/context.js';
import { centPrecision, currencyCode, isCentAmount } from '../shared/money.js';
import { loadReferenced } from '../shared/references.js';
import { asDraft } from '../shared/validation.js';
import { PRODUCT_DISCOUNT_TYPE_ID, type ProductDiscount } from './product-discount.js';

/** resources/product-discounts.raml `/matching`: view_product_discounts or view_products (manage scopes imply view). */
const MATCHING_AUTH = { auth: { anyOf: ['view_product_discounts', 'view_products', 'manage_product_discounts', 'manage_products'] } } as const;

interface MatchQuery {
  productId: string;
  variantId: number;
  staged: boolean;
  price: Price;
}

function idOf(value: unknown, field: string): { id: string } | undefined {
  if (value === undefined || value === null) return undefined;
  const id = (value as { id?: unknown }).id;
  if (typeof value !== 'object' || typeof id !== 'string') throw invalidInput(`'${field}' must be a Reference with an 'id'.`, { field });
  return { id };
}

/** The reference's QueryPrice: `value` and the scope fields a product predicate may read. */
function queryPrice(value: unknown): Price {
  const draft = asDraft(value, 'price (QueryPrice)');
  const money = asDraft(draft.value, 'price.value (Money)');
  if (!isCentAmount(money.centAmount, false))
    throw invalidInput("'price.value.centAmount' must be a non-negative integer.", { field: 'price.value.centAmount' });
  const price: Price = {
    id: typeof draft.id === 'string' ? draft.id : '',
    value: centPrecision(currencyCode(money.currencyCode, 'price.value.currencyCode'), money.centAmount),
  };
  if (typeof draft.country === 'string') price.country = draft.country;
  const customerGroup = idOf(draft.customerGroup, 'price.customerGroup');
  if (customerGroup !== undefined) price.customerGroup = { typeId: 'customer-group', ...customerGroup };
  const channel = idOf(draft.channel, 'price.channel');
  if (channel !== undefined) price.channel = { typeId: 'channel', ...channel };
  return price;
}

/** The reference's ProductDiscountMatchQuery: all four fields are required. */
function matchQuery(body: unknown): MatchQuery {
  const draft = asDraft(body, 'ProductDiscountMatchQuery');
  for (const field of ['productId', 'variantId', 'staged', 'price']) if (draft[field] === undefined || draft[field] === null) throw requiredField(field);
  if (typeof draft.productId !== 'string') throw invalidInput("'productId' must be a string.", { field: 'productId' });
  if (typeof draft.variantId !== 'number' || !Number.isInteger(draft.variantId)) throw invalidInput("'variantId' must be an integer.", { field: 'variantId' });
  if (typeof draft.staged !== 'boolean') throw invalidInput("'staged' must be a boolean.", { field: 'staged' });
  return { productId: draft.productId, variantId: draft.variantId, staged: draft.staged, price: queryPrice(draft.price) };
}

/** The keys a product predicate may name, read for the product's type and categories. */
async function keysOf(documents: DocumentStore, projectKey: string, product: Product, staged: boolean): Promise<ProductPredicateKeys> {
  const data = staged ? product.masterData.staged : product.masterData.current;
  const [types, categories] = await Promise.all([
    documents.getMany<BaseResource>(projectKey, 'product-type', [product.productType.id]),
    documents.getMany<BaseResource>(
      projectKey,
      'category',
      data.categories.map((category) => category.id),
    ),
  ]);
  const categoryKeys: Record<string, string> = {};
  for (const [id, category] of categories) if (category.key !== undefined) categoryKeys[id] = category.key;
  const productType = types.get(product.productType.id)?.key;
  return { categories: categoryKeys, ...(productType === undefined ? {} : { productType }) };
}

function noMatch(query: MatchQuery): ApiError {
  const { value } = query.price;
  return new ApiError(404, {
    code: 'NoMatchingProductDiscountFound',
    message: `Couldn't find a matching product discount for: productId=${query.productId}, variantId=${query.variantId}, price=${value.centAmount} ${value.currencyCode}.`,
  });
}

/**
 * `POST /{projectKey}/product-discounts/matching`: the Product Discount that would apply to the
 * given price of the variant (discountedPriceFor), or 404 NoMatchingProductDiscountFound.
 */
export function registerProductDiscountMatching(app: FastifyInstance, documents: DocumentStore, clock = systemClock): void {
  app.post('/:projectKey/product-discounts/matching', { config: MATCHING_AUTH }, async (request) => {
    const ctx = requestContext(request, documents);
    const query = matchQuery(request.body);
    const product = await loadReferenced<Product>(ctx.load, PRODUCT_TYPE_ID, { id: query.productId });
    const data = query.staged ? product.masterData.staged : product.masterData.current;
    const variant = allVariants(data).find((each) => each.id === query.variantId);
    if (variant === undefined)
      throw invalidInput(`The product '${product.id}' has no variant ${query.variantId}.`, { field: 'variantId', invalidValue: query.variantId });
    const discounts = await activeDiscounts<ProductDiscount>(documents.db, ctx.projectKey, PRODUCT_DISCOUNT_TYPE_ID);
    const keys = await keysOf(documents, ctx.projectKey, product, query.staged);
    const discounted = discountedPriceFor(discounts, product, variant, query.price, clock.now(), { staged: query.staged, keys });
    const match = discounted === undefined ? undefined : discounts.find((discount) => discount.id === discounted.discount.id);
    if (match === undefined) throw noMatch(query);
    return match;
  });
}
