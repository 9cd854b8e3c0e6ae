import type { BaseResource, CustomFields, KeyReference, LocalizedString } from '@herald/model';
import type { Address } from './address.js';
import type { CentPrecisionMoney } from './money.js';

/**
 * The platform's enumerations for the four cart modes. §2.3 shows only the defaults (None,
 * Platform, HalfEven, LineItemLevel); the other values are the platform's and are stored as given
 * (Herald has no inventory or tax engine that would act on them).
 */
export const INVENTORY_MODES = ['None', 'TrackOnly', 'ReserveOnOrder'] as const;
export const TAX_MODES = ['Platform', 'External', 'ExternalAmount', 'Disabled'] as const;
export const TAX_ROUNDING_MODES = ['HalfEven', 'HalfUp', 'HalfDown'] as const;
export const TAX_CALCULATION_MODES = ['LineItemLevel', 'UnitPriceLevel'] as const;

export type InventoryMode = (typeof INVENTORY_MODES)[number];
export type TaxMode = (typeof TAX_MODES)[number];
export type TaxRoundingMode = (typeof TAX_ROUNDING_MODES)[number];
export type TaxCalculationMode = (typeof TAX_CALCULATION_MODES)[number];

/**
 * A line item. Herald has no product catalogue, so the name and the price come with the draft:
 * the price mode is always `ExternalPrice` and `productId`/`variant.sku` are the caller's ids.
 */
export interface LineItem {
  id: string;
  key?: string;
  productId?: string;
  variant: { id?: number; sku?: string };
  name: LocalizedString;
  quantity: number;
  price: { id: string; value: CentPrecisionMoney };
  priceMode: 'ExternalPrice';
  lineItemMode: 'Standard';
  totalPrice: CentPrecisionMoney;
  custom?: CustomFields;
}

export interface CustomLineItem {
  id: string;
  key?: string;
  name: LocalizedString;
  slug: string;
  quantity: number;
  money: CentPrecisionMoney;
  totalPrice: CentPrecisionMoney;
  priceMode: 'Standard' | 'External';
  custom?: CustomFields;
}

export type ShippingRateInput = { type: 'Classification'; key: string } | { type: 'Score'; score: number };

/**
 * A discount code as entered. Herald has no discount engine: codes are recorded (they make a cart
 * ineligible for a quote request, §2.3) but never change prices.
 */
export interface DiscountCodeInfo {
  code: string;
}

/** Herald keeps direct discounts as data only (no pricing engine); see DiscountCodeInfo. */
export interface DirectDiscount {
  id: string;
  value: unknown;
  target?: unknown;
}

export interface Cart extends BaseResource {
  key?: string;
  cartState: 'Active';
  customerId?: string;
  anonymousId?: string;
  store?: KeyReference<'store'>;
  businessUnit?: KeyReference<'business-unit'>;
  country?: string;
  lineItems: LineItem[];
  customLineItems: CustomLineItem[];
  totalPrice: CentPrecisionMoney;
  shippingAddress?: Address;
  billingAddress?: Address;
  itemShippingAddresses: Address[];
  discountCodes: DiscountCodeInfo[];
  directDiscounts: DirectDiscount[];
  inventoryMode: InventoryMode;
  taxMode: TaxMode;
  taxRoundingMode: TaxRoundingMode;
  taxCalculationMode: TaxCalculationMode;
  shippingRateInput?: ShippingRateInput;
  custom?: CustomFields;
  /** Days without a modification after which the cart is deleted (retention.ts). */
  deleteDaysAfterLastModification: number;
}

/** Custom fields of carts use the platform's resource type id `order` (Types for orders and carts). */
export const CART_CUSTOM_FIELDS_TYPE_ID = 'order';
