import type { DocumentStore } from '@herald/store';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { repeated } from '../../http/query-params.js';
import { allVariants, PRODUCT_TYPE_ID, type Product } from '../products/product.js';
import { followProducts } from './follow-products.js';
import type { ShoppingList, ShoppingListLineItem } from './shopping-list.js';

/*
 * ShoppingListLineItem: "In addition to standard Reference Expansion, a ShoppingListLineItem offers
 * expansion on `productSlug` and `variant`" — values, not references, so the store's reference
 * expansion cannot produce them: they are read from each product's current data here. "You cannot
 * expand a single element": only the `[*]` forms count. The standard expansion (customer,
 * lineItems[*].productType, …) has run by the time this does.
 */

const VARIANT = 'lineItems[*].variant';
const PRODUCT_SLUG = 'lineItems[*].productSlug';

interface Wanted {
  variant: boolean;
  productSlug: boolean;
}

function wanted(request: FastifyRequest): Wanted {
  const paths = repeated(request.query as Record<string, string | string[] | undefined>, 'expand').map((path) => path.replace(/\s/g, ''));
  return { variant: paths.includes(VARIANT), productSlug: paths.includes(PRODUCT_SLUG) };
}

function isShoppingList(value: unknown): value is ShoppingList {
  return typeof value === 'object' && value !== null && Array.isArray((value as { lineItems?: unknown }).lineItems);
}

/** The shopping lists of an answer: one, or a page's results. */
function listsIn(payload: unknown): ShoppingList[] {
  if (isShoppingList(payload)) return [payload];
  const results = (payload as { results?: unknown } | null)?.results;
  return Array.isArray(results) ? results.filter(isShoppingList) : [];
}

function expandItem(item: ShoppingListLineItem, product: Product | undefined, want: Wanted): void {
  if (product === undefined) return;
  const data = product.masterData.current;
  if (want.productSlug) Object.assign(item, { productSlug: data.slug });
  if (want.variant) {
    const variant = item.variantId === undefined ? data.masterVariant : allVariants(data).find((candidate) => candidate.id === item.variantId);
    // Product attributes merged into the variant's: "the full Attribute context of the Product Variant".
    if (variant !== undefined) Object.assign(item, { variant: { ...variant, attributes: [...data.attributes, ...variant.attributes] } });
  }
}

/**
 * On every shopping list answered by the routes registered on `scope`: the line items follow their
 * products (follow-products.ts), and get `variant` / `productSlug` when the request's `expand`
 * names them. The payload is the handler's own copy (expanded or freshly read), never a stored
 * document.
 */
export function installLineItemExpansion(scope: FastifyInstance, documents: DocumentStore): void {
  scope.addHook('preSerialization', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (reply.statusCode >= 300) return payload;
    const items = listsIn(payload).flatMap((list) => list.lineItems);
    if (items.length === 0) return payload;
    const projectKey = (request.params as { projectKey: string }).projectKey;
    const products = await documents.getMany<Product>(projectKey, PRODUCT_TYPE_ID, [...new Set(items.map((item) => item.productId))]);
    await followProducts(items, products, documents.db, projectKey);
    const want = wanted(request);
    if (want.variant || want.productSlug) for (const item of items) expandItem(item, products.get(item.productId), want);
    return payload;
  });
}
