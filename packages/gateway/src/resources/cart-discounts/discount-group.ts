import { invalidInput, type Reference } from '@herald/model';
import type { DiscountGroup } from '../discount-groups/discount-group.js';
import { identifierLocator, loadReferenced, type Load } from '../shared/references.js';
import type { CartDiscountTarget } from './cart-discount.js';

/** The target types a grouped Cart Discount may have (CartDiscountDraft.discountGroup). */
const GROUPABLE_TARGETS: ReadonlySet<string> = new Set(['lineItems', 'customLineItems', 'multiBuyLineItems', 'multiBuyCustomLineItems', 'pattern']);

/** A Cart Discount's group: the reference it stores and the sortOrder it takes from it. */
export interface Grouping {
  reference: Reference<'discount-group'>;
  sortOrder: string;
}

/** A DiscountGroupResourceIdentifier resolved (400 ReferencedResourceNotFound when none); absent or null: none. */
export async function discountGroupOf(value: unknown, load: Load): Promise<Grouping | undefined> {
  if (value === undefined || value === null) return undefined;
  const group = await loadReferenced<DiscountGroup>(load, 'discount-group', identifierLocator(value, 'discountGroup', 'discount-group'));
  return { reference: { typeId: 'discount-group', id: group.id }, sortOrder: group.sortOrder };
}

/**
 * "A CartDiscount can only be added to a DiscountGroup if its target.type is lineItems,
 * customLineItems, multiBuyLineItems, multiBuyCustomLineItems, or pattern; otherwise, an
 * InvalidInput error is returned" (a giftLineItem discount has no target at all).
 */
export function assertTargetGroupable(target: CartDiscountTarget | undefined): void {
  if (target !== undefined && GROUPABLE_TARGETS.has(target.type)) return;
  throw invalidInput(
    `Only a cart discount targeting ${[...GROUPABLE_TARGETS].join(', ')} can be in a discount group; this one targets ${target?.type ?? 'nothing'}.`,
    { field: 'discountGroup' },
  );
}
