import type { BaseResource, CustomFields, KeyReference, LocalizedString, Reference } from '@herald/model';

export const DISCOUNT_CODE_TYPE_ID = 'discount-code';

/** The reference's DiscountCode (types/discount-code/DiscountCode.raml). */
export interface DiscountCode extends BaseResource {
  key?: string;
  name?: LocalizedString;
  description?: LocalizedString;
  code: string;
  cartDiscounts: Array<Reference<'cart-discount'>>;
  /** Derived from the `stores` of the referenced Cart Discounts. */
  stores: Array<KeyReference<'store'>>;
  cartPredicate?: string;
  isActive: boolean;
  references: Reference[];
  maxApplications?: number;
  maxApplicationsPerCustomer?: number;
  custom?: CustomFields;
  groups: string[];
  validFrom?: string;
  validUntil?: string;
}
