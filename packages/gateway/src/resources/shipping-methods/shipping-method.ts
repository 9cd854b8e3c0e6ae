import type { BaseResource, CustomFields, KeyReference, LocalizedString, Reference } from '@herald/model';
import type { CentPrecisionMoney } from '../shared/money.js';

export const SHIPPING_METHOD_TYPE_ID = 'shipping-method';

/** `isMatching` appears only in the answers of the matching endpoints (types/shipping-method/ShippingRate.raml). */
interface Matchable {
  isMatching?: boolean;
}

/** The reference's CartValueTier: the tier applies from a cart total of `minimumCentAmount` on. */
export interface CartValueTier extends Matchable {
  type: 'CartValue';
  minimumCentAmount: number;
  price: CentPrecisionMoney;
}

/** The reference's CartClassificationTier: `value` is a key of the project's CartClassification values. */
export interface CartClassificationTier extends Matchable {
  type: 'CartClassification';
  value: string;
  price: CentPrecisionMoney;
}

/** The reference's PriceFunction: cent amount from the score `x` with `+ - *` and parentheses. */
export interface PriceFunction {
  currencyCode: string;
  function: string;
}

/** The reference's CartScoreTier: "Either `price` or `priceFunction` is required". */
export interface CartScoreTier extends Matchable {
  type: 'CartScore';
  score: number;
  price?: CentPrecisionMoney;
  priceFunction?: PriceFunction;
}

export type ShippingRatePriceTier = CartValueTier | CartClassificationTier | CartScoreTier;
export type TierType = ShippingRatePriceTier['type'];

/** The reference's ShippingRate (types/shipping-method/ShippingRate.raml). */
export interface ShippingRate extends Matchable {
  price: CentPrecisionMoney;
  freeAbove?: CentPrecisionMoney;
  tiers: ShippingRatePriceTier[];
}

/** The reference's ZoneRate: the rates of one Zone, one per currency. */
export interface ZoneRate {
  zone: Reference<'zone'>;
  shippingRates: ShippingRate[];
}

/** The reference's ShippingMethod (types/shipping-method/ShippingMethod.raml). */
export interface ShippingMethod extends BaseResource {
  key?: string;
  name: string;
  localizedName?: LocalizedString;
  description?: string;
  localizedDescription?: LocalizedString;
  taxCategory: Reference<'tax-category'>;
  zoneRates: ZoneRate[];
  active: boolean;
  isDefault: boolean;
  predicate?: string;
  custom?: CustomFields;
  stores: Array<KeyReference<'store'>>;
  carrier?: string;
}
