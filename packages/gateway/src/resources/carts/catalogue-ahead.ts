import type { BaseResource } from '@herald/model';
import { TurnBatches, type Queryable } from '@herald/store';
import { CART_DISCOUNT_TYPE_ID } from '../cart-discounts/cart-discount.js';
import { activeDiscountsSql } from '../discounts/active-discounts.js';
import { DISCOUNT_GROUP_TYPE_ID } from '../discount-groups/discount-group.js';
import { PRODUCT_DISCOUNT_TYPE_ID } from '../product-discounts/product-discount.js';
import { PRODUCT_TYPE_ID, type Product } from '../products/product.js';
import { CLAIMED_SKU_VARIANTS_SQL, productsBySku, withUnclaimedSkus } from '../products/sku-lookup.js';

/*
 * What a new cart reads of the catalogue before pricing its items, read for all the cart drafts of
 * one event-loop turn in one statement (issue 28): the published products of their SKUs and the
 * project's active product discounts, cart discounts and discount groups. Each of those was a
 * round trip of its own per cart, and on this loopback a round trip's socket write cost the
 * gateway more CPU than pricing the cart.
 *
 * Nothing is cached: the statement is sent on the turn after the drafts asked for it, so it starts
 * after each of their requests did and sees every write acknowledged before them, in any process
 * (read-after-write). Carts being updated read inside their own transaction instead (catalogue.ts).
 */

/** The discount types a cart's pricing reads all active ones of (discounting.ts, product-discounts.ts). */
export const ACTIVE_DISCOUNT_TYPES = [PRODUCT_DISCOUNT_TYPE_ID, CART_DISCOUNT_TYPE_ID, DISCOUNT_GROUP_TYPE_ID] as const;

/**
 * What one cart draft gets: its SKUs' published products (a SKU asked for and absent has none) and
 * the active discounts by type. A product read through its SKU claims holds only what a line item
 * copies (sku-lookup.ts CLAIMED_SKU_VARIANTS_SQL: its current data with the variants of the SKUs
 * asked for and the master variant); everything else about it is loaded by id.
 */
export interface CatalogueAhead {
  readonly skus: ReadonlySet<string>;
  readonly products: ReadonlyMap<string, Product>;
  readonly active: ReadonlyMap<string, BaseResource[]>;
}

/** As activeDiscounts reads them, one type per branch. */
const activeBranch = (typeParam: string) => `(${activeDiscountsSql('type_id, doc', typeParam)})`;

/** $1 the project, $2 the product type id, $3 the SKUs, $4-$6 the discount types. */
const AHEAD_SQL = `SELECT '${PRODUCT_TYPE_ID}' AS type_id, claimed.doc FROM (${CLAIMED_SKU_VARIANTS_SQL}) claimed
  UNION ALL ${activeBranch('$4')} UNION ALL ${activeBranch('$5')} UNION ALL ${activeBranch('$6')}`;

/** Enough drafts for every client of a busy pool; each adds its SKUs to the statement. */
const MAX_DRAFTS = 32;

interface Waiting {
  skus: readonly string[];
  resolve(ahead: CatalogueAhead): void;
  reject(error: unknown): void;
}

/** The drafts of this turn, per database, grouped by project (the store's turn scheduling). */
const turns = new WeakMap<Queryable, TurnBatches<Waiting>>();

/** The catalogue a cart draft with line items by `skus` is priced from, read together with the other drafts of this turn. */
export function readCatalogueAhead(db: Queryable, projectKey: string, skus: readonly string[]): Promise<CatalogueAhead> {
  let batches = turns.get(db);
  if (batches === undefined) {
    batches = new TurnBatches<Waiting>((project, _typeId, waiting) => void issue(db, project, waiting), MAX_DRAFTS);
    turns.set(db, batches);
  }
  const drafts = batches;
  return new Promise((resolve, reject) => drafts.add(projectKey, 'cart', { skus, resolve, reject }));
}

async function issue(db: Queryable, projectKey: string, waiting: readonly Waiting[]): Promise<void> {
  try {
    const wanted = new Set(waiting.flatMap((each) => each.skus));
    const found = await db.query<{ type_id: string; doc: BaseResource | Product }>(
      AHEAD_SQL,
      [projectKey, PRODUCT_TYPE_ID, [...wanted], ...ACTIVE_DISCOUNT_TYPES],
      {
        prepare: true,
      },
    );
    const products = found.rows.filter((row): row is { type_id: string; doc: Product } => row.type_id === PRODUCT_TYPE_ID);
    const bySku = await withUnclaimedSkus(db, projectKey, wanted, productsBySku(products, wanted, true), true);
    const active = new Map<string, BaseResource[]>(ACTIVE_DISCOUNT_TYPES.map((typeId) => [typeId, []]));
    for (const row of found.rows) active.get(row.type_id)?.push(row.doc);
    handOut(waiting, bySku, active);
  } catch (error) {
    for (const each of waiting) each.reject(error);
  }
}

/**
 * Each draft gets documents of its own (as the by-id reads hand them out): pricing must not see
 * another request's changes to a shared object. The first taker of a document gets it as read.
 */
function handOut(waiting: readonly Waiting[], bySku: ReadonlyMap<string, Product>, active: ReadonlyMap<string, BaseResource[]>): void {
  const taken = new Set<Product>();
  for (const [index, each] of waiting.entries()) {
    const mine = new Map<Product, Product>();
    const products = new Map<string, Product>();
    for (const sku of each.skus) {
      const product = bySku.get(sku);
      if (product === undefined) continue;
      let copy = mine.get(product);
      if (copy === undefined) {
        copy = taken.has(product) ? structuredClone(product) : product;
        taken.add(product);
        mine.set(product, copy);
      }
      products.set(sku, copy);
    }
    const discounts = index === 0 ? active : new Map([...active].map(([typeId, docs]) => [typeId, structuredClone(docs)]));
    each.resolve({ skus: new Set(each.skus), products, active: discounts });
  }
}
