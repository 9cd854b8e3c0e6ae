import type { Queryable } from '@herald/store';
import { allVariants, PRODUCT_TYPE_ID, type Product } from '../products/product.js';
import type { ShoppingListLineItem } from './shopping-list.js';

/*
 * ShoppingListLineItem: `name` and `published` are "updated in an eventual consistent manner when
 * the Product's name [published status] changes", and "If the Product or Product Variant is deleted
 * or unpublished, `deactivatedAt` is the date and time (UTC) this occurred". Herald answers them
 * from the product as it is when the list is returned, so they are never stale, whichever way the
 * product was changed. The stored values (copied when the item was added) remain for a deleted
 * product's name and for messages and change notifications.
 */

/** The product messages whose time is when a variant stopped being orderable. */
const DEACTIVATING_MESSAGES = ['ProductUnpublished', 'ProductDeleted', 'ProductVariantDeleted'];

/** An item can be ordered while its product exists, is published and (if it names one) has its variant in the current data. */
function isActive(item: ShoppingListLineItem, product: Product | undefined): boolean {
  if (product === undefined || !product.masterData.published) return false;
  return item.variantId === undefined || allVariants(product.masterData.current).some((variant) => variant.id === item.variantId);
}

/**
 * When each product was last unpublished, deleted or lost a variant: the time of its latest such
 * message (one query on the messages' (project, resource type, resource) index). Messages are kept
 * only while the project's Messages are enabled and not expired: a product without one is absent.
 */
async function deactivationTimes(db: Queryable, projectKey: string, productIds: readonly string[]): Promise<Map<string, string>> {
  if (productIds.length === 0) return new Map();
  const found = await db.query<{ resource_id: string; at: string | Date }>(
    `SELECT resource_id, max(created_at) AS at FROM messages
      WHERE project_key = $1 AND resource_type_id = $2 AND resource_id = ANY($3::text[]) AND type = ANY($4::text[])
      GROUP BY resource_id`,
    [projectKey, PRODUCT_TYPE_ID, productIds, DEACTIVATING_MESSAGES],
  );
  return new Map(found.rows.map((row) => [row.resource_id, new Date(row.at).toISOString()]));
}

function followName(item: ShoppingListLineItem, product: Product | undefined): void {
  if (product === undefined) {
    item.published = false;
    return;
  }
  item.name = product.masterData.current.name;
  item.published = product.masterData.published;
}

/**
 * Sets `name`, `published` and `deactivatedAt` of the answered line items from their products
 * (`products` by id, as read for the answer). An inactive item's time is its product's last
 * deactivating message, else the product's `lastModifiedAt` (the write that unpublished it or a
 * later one); a deleted product without a message keeps no time.
 */
export async function followProducts(
  items: readonly ShoppingListLineItem[],
  products: ReadonlyMap<string, Product>,
  db: Queryable,
  projectKey: string,
): Promise<void> {
  const inactive = new Set(items.filter((item) => !isActive(item, products.get(item.productId))));
  const times = await deactivationTimes(db, projectKey, [...new Set([...inactive].map((item) => item.productId))]);
  for (const item of items) {
    const product = products.get(item.productId);
    followName(item, product);
    const deactivatedAt = inactive.has(item) ? (times.get(item.productId) ?? product?.lastModifiedAt) : undefined;
    if (deactivatedAt === undefined) delete item.deactivatedAt;
    else item.deactivatedAt = deactivatedAt;
  }
}
