import type { BaseResource, LocalizedString, Reference } from '@herald/model';
import type { CentPrecisionMoney } from '../shared/money.js';

export const PRODUCT_DISCOUNT_TYPE_ID = 'product-discount';

/** The reference's ProductDiscountValue: relative (permyriad), absolute (per currency) or external. */
export type ProductDiscountValue = { type: 'relative'; permyriad: number } | { type: 'absolute'; money: CentPrecisionMoney[] } | { type: 'external' };

/** The reference's ProductDiscount (types/product-discount/ProductDiscount.raml). */
export interface ProductDiscount extends BaseResource {
  key?: string;
  name: LocalizedString;
  description?: LocalizedString;
  value: ProductDiscountValue;
  predicate: string;
  sortOrder: string;
  isActive: boolean;
  references: Reference[];
  validFrom?: string;
  validUntil?: string;
}
