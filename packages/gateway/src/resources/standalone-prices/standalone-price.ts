import type { BaseResource, CustomFields, Reference } from '@herald/model';
import type { TypedMoney } from '../shared/typed-money.js';

export const STANDALONE_PRICE_TYPE_ID = 'standalone-price';

/** The reference's PriceTier: `value` applies from `minimumQuantity` (at least 2) on. */
export interface PriceTier {
  minimumQuantity: number;
  value: TypedMoney;
}

/** The reference's DiscountedPrice. */
export interface DiscountedPrice {
  value: TypedMoney;
  discount: Reference<'product-discount'>;
}

/** The reference's StagedStandalonePrice. */
export interface StagedStandalonePrice {
  value: TypedMoney;
  discounted?: DiscountedPrice;
}

/** The reference's StandalonePrice (types/standalone-price/StandalonePrice.raml). */
export interface StandalonePrice extends BaseResource {
  key?: string;
  sku: string;
  value: TypedMoney;
  country?: string;
  customerGroup?: Reference<'customer-group'>;
  channel?: Reference<'channel'>;
  validFrom?: string;
  validUntil?: string;
  tiers?: PriceTier[];
  discounted?: DiscountedPrice;
  custom?: CustomFields;
  staged?: StagedStandalonePrice;
  active: boolean;
}
