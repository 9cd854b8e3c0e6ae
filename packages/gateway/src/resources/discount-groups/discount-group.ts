import type { BaseResource, LocalizedString } from '@herald/model';

export const DISCOUNT_GROUP_TYPE_ID = 'discount-group';

/**
 * The reference's DiscountGroup (types/discount-group/DiscountGroup.raml): Cart Discounts grouped
 * so that only the best deal among them applies to a cart, at the group's `sortOrder`, and only
 * while the group `isActive`.
 */
export interface DiscountGroup extends BaseResource {
  key: string;
  name?: LocalizedString;
  description?: LocalizedString;
  sortOrder: string;
  isActive: boolean;
}
