import type { BaseResource, CustomFields, KeyReference, LocalizedString } from '@herald/model';
import type { Address } from '../shared/address.js';
import type { CentPrecisionMoney } from '../shared/money.js';

/**
 * The platform's enumerations for the four cart modes. §2.3 shows only the defaults (None,
 * Platform, HalfEven, LineItemLevel); the other values are the platform's and are stored as given
 * (Herald has no inventory or tax engine that would act on them).
 */
export const INVENTORY_MODES = ['None', 'TrackOnly', 'ReserveOnOrder', 'ReserveOnCart'] as const;
export const TAX_MODES = ['Platform', 'External', 'ExternalAmount', 'Disabled'] as const;
export const TAX_ROUNDING_MODES = ['HalfEven', 'HalfUp', 'HalfDown'] as const;
export const TAX_CALCULATION_MODES = ['LineItemLevel', 'UnitPriceLevel'] as const;

export type InventoryMode = (typeof INVENTORY_MODES)[number];
export type TaxMode = (typeof TAX_MODES)[number];
export type TaxRoundingMode = (typeof TAX_ROUNDING_MODES)[number];
export type TaxCalculationMode = (typeof TAX_CALCULATION_MODES)[number];

/** CartOrigin: carts are made by customers or by a merchant for them (Quote and RecurringOrder carts come from processes Herald lacks). */
export const CART_ORIGINS = ['Customer', 'Merchant'] as const;
export const SHIPPING_MODES = ['Single', 'Multiple'] as const;
export type CartOrigin = (typeof CART_ORIGINS)[number];
export type ShippingMode = (typeof SHIPPING_MODES)[number];

/** ItemShippingTarget: how many units of an item go to which of the cart's `itemShippingAddresses`. */
export interface ItemShippingTarget {
  addressKey: string;
  quantity: number;
  shippingMethodKey?: string;
}

/** ItemShippingDetails: `valid` when the targets' quantities add up to the item's quantity. */
export interface ItemShippingDetails {
  targets: ItemShippingTarget[];
  valid: boolean;
}

/**
 * The arrays the reference's LineItem and CustomLineItem require that only a price, tax and state
 * engine would fill (discounted prices, taxed price portions, per-method tax rates, item states):
 * Herald has none of them, so they are present and empty.
 */
export interface ItemEngineFields {
  discountedPricePerQuantity: never[];
  taxedPricePortions: never[];
  perMethodTaxRate: never[];
  state: never[];
}

/**
 * A line item. Herald has no product catalogue, so the name and the price come with the draft:
 * the price mode is always `ExternalPrice` and `productId`/`variant.sku` are the caller's ids
 * (line-items.ts says what stands in for the catalogue's `productId`, `productType` and variant id
 * when the draft does not name them).
 */
export interface LineItem extends ItemEngineFields {
  id: string;
  key?: string;
  productId: string;
  productType: { typeId: 'product-type'; id: string };
  variant: { id: number; sku?: string };
  name: LocalizedString;
  quantity: number;
  price: { id: string; value: CentPrecisionMoney };
  priceMode: 'ExternalPrice';
  lineItemMode: 'Standard';
  totalPrice: CentPrecisionMoney;
  inventoryMode?: InventoryMode;
  shippingDetails?: ItemShippingDetails;
  custom?: CustomFields;
}

export interface CustomLineItem extends ItemEngineFields {
  id: string;
  key?: string;
  name: LocalizedString;
  slug: string;
  quantity: number;
  money: CentPrecisionMoney;
  totalPrice: CentPrecisionMoney;
  priceMode: 'Standard' | 'External';
  shippingDetails?: ItemShippingDetails;
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

/**
 * A Cart with the fields of the reference's Cart type that Herald can hold. `shipping` (the
 * shipping methods of a `Multiple` cart) and `refusedGifts` (gift discounts) stay empty: Herald has
 * no shipping methods or cart discounts.
 */
export interface Cart extends BaseResource {
  key?: string;
  /**
   * `Merged`: an anonymous cart whose items went into the customer's cart at sign-in (sign-in-carts.ts).
   * `Ordered`: an order was created from it (resources/orders); like Merged, it cannot change any more.
   */
  cartState: 'Active' | 'Merged' | 'Ordered';
  /** `Quote`: the quotation cart of a staged quote (resources/staged-quotes), never a draft's value. */
  origin: CartOrigin | 'Quote';
  customerId?: string;
  customerEmail?: string;
  anonymousId?: string;
  store?: KeyReference<'store'>;
  businessUnit?: KeyReference<'business-unit'>;
  country?: string;
  locale?: string;
  purchaseOrderNumber?: string;
  lineItems: LineItem[];
  customLineItems: CustomLineItem[];
  /** The sum of the line items' quantities; only present when the cart has line items. */
  totalLineItemQuantity?: number;
  totalPrice: CentPrecisionMoney;
  shippingAddress?: Address;
  billingAddress?: Address;
  itemShippingAddresses: Address[];
  discountCodes: DiscountCodeInfo[];
  directDiscounts: DirectDiscount[];
  inventoryMode: InventoryMode;
  taxMode: TaxMode;
  priceRoundingMode: TaxRoundingMode;
  taxRoundingMode: TaxRoundingMode;
  taxCalculationMode: TaxCalculationMode;
  shippingMode: ShippingMode;
  shipping: never[];
  refusedGifts: never[];
  shippingRateInput?: ShippingRateInput;
  custom?: CustomFields;
  /** Days without a modification after which the cart is deleted (retention.ts). */
  deleteDaysAfterLastModification: number;
}

/** Custom fields of carts use the platform's resource type id `order` (Types for orders and carts). */
export const CART_CUSTOM_FIELDS_TYPE_ID = 'order';
