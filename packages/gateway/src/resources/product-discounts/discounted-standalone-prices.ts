import { systemClock, type MessagePayload } from '@herald/model';
import type { DocumentStore, Queryable, UpdateResult, WriteContext } from '@herald/store';
import { compareSortOrders } from '../discounts/sort-order.js';
import { isValidAt } from '../discounts/validity.js';
import { platformDiscountedPrices, platformDiscounts, platformOwnsDiscounted, setPlatformDiscounted } from '../standalone-prices/platform-discount.js';
import { readsWithin } from '../standalone-prices/price-documents.js';
import { STANDALONE_PRICE_TYPE_ID, type StandalonePrice } from '../standalone-prices/standalone-price.js';
import { withWriteFollowers } from '../shared/write-followers.js';
import type { ProductDiscount } from './product-discount.js';

/** Standalone prices read per statement while a discount write follows them (keyset pages by id). */
const PAGE_SIZE = 500;

/** Whether the platform applies the discount now (an external one never computes a value). */
function applies(discount: ProductDiscount | undefined, now: Date): boolean {
  return discount !== undefined && discount.isActive && discount.value.type !== 'external' && isValidAt(discount, now);
}

/** The fields a discount's effect on prices depends on (name, description and key change nothing). */
function effect(discount: ProductDiscount | undefined): string {
  if (discount === undefined) return '';
  const { value, predicate, sortOrder, isActive, validFrom, validUntil } = discount;
  return JSON.stringify([value, predicate, sortOrder, isActive, validFrom, validUntil]);
}

/** The prices whose `discounted` names the discount: the `@>` the GIN index on `doc` answers. */
async function pricesDiscountedBy(tx: Queryable, projectKey: string, discountId: string): Promise<StandalonePrice[]> {
  const found = await tx.query<{ doc: StandalonePrice }>('SELECT doc FROM resources WHERE project_key = $1 AND type_id = $2 AND doc @> $3::jsonb', [
    projectKey,
    STANDALONE_PRICE_TYPE_ID,
    JSON.stringify({ discounted: { discount: { id: discountId } } }),
  ]);
  return found.rows.map((row) => row.doc);
}

/** One page of the project's standalone prices after `afterId` (the primary key answers it). */
async function pricePage(tx: Queryable, projectKey: string, afterId: string): Promise<StandalonePrice[]> {
  const found = await tx.query<{ doc: StandalonePrice }>(
    `SELECT doc FROM resources WHERE project_key = $1 AND type_id = $2 AND id > $3 ORDER BY id LIMIT ${PAGE_SIZE}`,
    [projectKey, STANDALONE_PRICE_TYPE_ID, afterId],
  );
  return found.rows.map((row) => row.doc);
}

/** Each price's platform `discounted` written with its StandalonePriceDiscountSet when it changed. */
async function followPrices(joined: DocumentStore, ctx: WriteContext, tx: Queryable, prices: readonly StandalonePrice[], written: ProductDiscount | undefined) {
  const reads = readsWithin(ctx, joined, tx);
  const owned: StandalonePrice[] = [];
  for (const price of prices) if (await platformOwnsDiscounted(price, reads.load, written)) owned.push(price);
  const computed = await platformDiscountedPrices(owned, await platformDiscounts(reads), reads);
  for (const [index, price] of owned.entries()) {
    const next = structuredClone(price);
    const message = setPlatformDiscounted(next, computed[index]);
    if (message === undefined) continue;
    const apply = (): UpdateResult<StandalonePrice> => ({ doc: next, messages: [message as MessagePayload] });
    await joined.update<StandalonePrice>(ctx, STANDALONE_PRICE_TYPE_ID, { id: price.id }, price.version, apply);
  }
}

/** The currencies an `absolute` value applies to ("will only match a price if this array contains a value with the same currency"). */
function currencies(discount: ProductDiscount): string {
  return discount.value.type === 'absolute' ? JSON.stringify(discount.value.money.map((money) => money.currencyCode).sort()) : discount.value.type;
}

/**
 * Whether the discount, applying after the write, may now win on prices it did not discount
 * before: it started applying, or matches other prices (predicate, currencies), or outranks more
 * discounts (a higher sortOrder). A lower sortOrder or another amount changes only its own prices.
 */
function mayWinElsewhere(before: ProductDiscount | undefined, after: ProductDiscount, now: Date): boolean {
  if (before === undefined || !applies(before, now)) return true;
  return before.predicate !== after.predicate || currencies(before) !== currencies(after) || compareSortOrders(after.sortOrder, before.sortOrder) > 0;
}

/**
 * After a discount write (`before` → `after`, either absent for a create or a delete), in its
 * transaction: the standalone prices whose platform discount may have changed. Mostly the prices
 * it discounts (found by index). When it may win elsewhere (mayWinElsewhere), any price whose SKU a
 * published product has can change, and the predicate may name any field of the product or the
 * price, so every standalone price of the project is read, a page at a time.
 */
export async function followDiscountWrite(
  joined: DocumentStore,
  ctx: WriteContext,
  tx: Queryable,
  before?: ProductDiscount,
  after?: ProductDiscount,
): Promise<void> {
  if (effect(before) === effect(after)) return;
  const now = systemClock.now();
  const written = before ?? after;
  if (written === undefined) return;
  if (after === undefined || !applies(after, now) || !mayWinElsewhere(before, after, now)) {
    if (applies(before, now)) await followPrices(joined, ctx, tx, await pricesDiscountedBy(tx, ctx.projectKey, written.id), before);
    return;
  }
  for (let page = await pricePage(tx, ctx.projectKey, ''); page.length > 0; page = await pricePage(tx, ctx.projectKey, page[page.length - 1]?.id ?? '')) {
    await followPrices(joined, ctx, tx, page, before);
  }
}

/**
 * The document store the product discount routes write through: each create, update and delete
 * follows the standalone prices' platform discount in its own transaction (followDiscountWrite).
 * Updates are locked, not optimistic, to run in one transaction.
 */
export function productDiscountDocuments(documents: DocumentStore): DocumentStore {
  return withWriteFollowers<ProductDiscount>(documents, {
    lockedUpdates: true,
    afterCreate: ({ ctx, tx, joined }, created) => followDiscountWrite(joined, ctx, tx, undefined, created),
    alongsideUpdate: ({ ctx, tx, joined }, previous, next) => followDiscountWrite(joined, ctx, tx, previous, next),
    afterDelete: ({ ctx, tx, joined }, deleted) => followDiscountWrite(joined, ctx, tx, deleted, undefined),
  });
}
