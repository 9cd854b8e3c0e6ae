import type { BaseResource, CustomFields, KeyReference, LocalizedString, Reference } from '@herald/model';
import type { Address } from '../shared/address.js';
import type { CentPrecisionMoney } from '../shared/money.js';
import type { DiscountCodeState, DiscountedLineItemPrice } from '../discounts/cart-pricing.js';
import type { DiscountedPrice } from '../discounts/product-pricing.js';
import type { PaymentInfo } from '../orders/payments.js';
import type { CartLock, FreezeStrategy } from './cart-states.js';
import type { DirectDiscount } from './direct-discounts.js';
import type { RecurrenceInfo } from './recurrence-info.js';
import type { CartShippingInfo } from './shipping.js';
import type { CartShipping, MethodTaxedPrice, MethodTaxRate } from './multi-shipping.js';
import type { ItemTaxRate, TaxedItemPrice, TaxedPrice } from './taxed-price.js';

/**
 * The platform's enumerations for the four cart modes. §2.3 shows only the defaults (None,
 * Platform, HalfEven, LineItemLevel); the others are the platform's: taxes.ts acts on the tax
 * modes, the order created from a cart on the inventory modes (order-inventory.ts; ReserveOnCart
 * is stored as given, Herald keeps no reservations).
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

/** The reference's DiscountedLineItemPriceForQuantity: `quantity` units with the same cart discounts. */
export interface DiscountedPriceForQuantity {
  quantity: number;
  discountedPrice: DiscountedLineItemPrice;
}

/**
 * The arrays the reference's LineItem and CustomLineItem require: the cart discounts' prices
 * (carts/discounting.ts), and what only `Multiple` shipping and item states would fill (per-method
 * taxed price portions and tax rates, item states), which Herald's carts have empty.
 */
export interface ItemEngineFields {
  discountedPricePerQuantity: DiscountedPriceForQuantity[];
  /** MethodTaxedPrice per shipping of a `Multiple` cart (multi-shipping-taxes.ts). */
  taxedPricePortions: MethodTaxedPrice[];
  /** MethodTaxRate per shipping of a `Multiple` cart (multi-shipping-taxes.ts). */
  perMethodTaxRate: MethodTaxRate[];
  state: never[];
}

/** LineItemPriceMode (types/cart/LineItemPriceMode.raml). */
export const LINE_ITEM_PRICE_MODES = ['Platform', 'ExternalPrice', 'ExternalTotal'] as const;
export type LineItemPriceMode = (typeof LINE_ITEM_PRICE_MODES)[number];

/**
 * The Price a line item pays (types/common/Price.raml): for `Platform` items the price selection
 * picked from the product (embedded or standalone), `value` being the tier its quantity reaches;
 * for external prices only `id` and `value`.
 */
export interface LineItemPrice {
  id: string;
  key?: string;
  value: CentPrecisionMoney;
  country?: string;
  customerGroup?: Reference<'customer-group'>;
  channel?: Reference<'channel'>;
  validFrom?: string;
  validUntil?: string;
  tiers?: Array<{ minimumQuantity: number; value: CentPrecisionMoney }>;
  /** The Product Discount's price of a `Platform` item (Price.discounted); cart discounts start from it. */
  discounted?: DiscountedPrice;
}

/** The variant a line item holds: a copy of the product's ProductVariant when it came from the catalogue. */
export interface LineItemVariant {
  id: number;
  sku?: string;
  key?: string;
  prices?: unknown[];
  attributes?: unknown[];
  images?: unknown[];
  assets?: unknown[];
}

/**
 * A line item (types/cart/LineItem.raml). From the catalogue (priceMode `Platform`, or an external
 * price of a published product) name, product type, slug and variant are copied from the product's
 * current projection (line-items.ts). A draft with `name` and `externalPrice` for a product the
 * project does not have keeps the caller's ids, as before the catalogue existed.
 */
export interface LineItem extends ItemEngineFields {
  id: string;
  key?: string;
  productId: string;
  productKey?: string;
  productType: { typeId: 'product-type'; id: string };
  productSlug?: LocalizedString;
  variant: LineItemVariant;
  name: LocalizedString;
  quantity: number;
  price: LineItemPrice;
  priceMode: LineItemPriceMode;
  /** `GiftLineItem`: added by a gift cart discount (gift-line-items.ts). */
  lineItemMode: 'Standard' | 'GiftLineItem';
  totalPrice: CentPrecisionMoney;
  taxRate?: ItemTaxRate;
  taxedPrice?: TaxedItemPrice;
  distributionChannel?: Reference<'channel'>;
  supplyChannel?: Reference<'channel'>;
  inventoryMode?: InventoryMode;
  shippingDetails?: ItemShippingDetails;
  recurrenceInfo?: RecurrenceInfo;
  addedAt?: string;
  lastModifiedAt?: string;
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
  /** Selects the TaxRate in the `Platform` TaxMode (CustomLineItemDraft.taxCategory). */
  taxCategory?: Reference<'tax-category'>;
  taxRate?: ItemTaxRate;
  taxedPrice?: TaxedItemPrice;
  shippingDetails?: ItemShippingDetails;
  recurrenceInfo?: RecurrenceInfo;
  custom?: CustomFields;
}

export type ShippingRateInput = { type: 'Classification'; key: string } | { type: 'Score'; score: number };

/** The reference's DiscountCodeInfo: a code added to the cart and its state, computed at every write. */
export interface DiscountCodeInfo {
  discountCode: Reference<'discount-code'>;
  state: DiscountCodeState;
}

/** The reference's DiscountOnTotalPrice (types/cart/DiscountOnTotalPrice.raml). */
export interface DiscountOnTotalPrice {
  discountedAmount: CentPrecisionMoney;
  includedDiscounts: Array<{ discount: Reference<'cart-discount'>; discountedAmount: CentPrecisionMoney }>;
  /** Present only when the cart has a `taxedPrice`: the same share of its net and gross. */
  discountedNetAmount?: CentPrecisionMoney;
  discountedGrossAmount?: CentPrecisionMoney;
}

/** Direct Discounts (direct-discounts.ts): the cart discounts of this cart only. */
export type { DirectDiscount } from './direct-discounts.js';

/**
 * A Cart with the fields of the reference's Cart type that Herald can hold: a `Single` cart's
 * shipping method is `shippingInfo` (shipping.ts), a `Multiple` cart's are `shipping` (multi-shipping.ts).
 */
export interface Cart extends BaseResource {
  key?: string;
  /**
   * `Merged`: an anonymous cart whose items went into the customer's cart at sign-in (sign-in-carts.ts).
   * `Ordered`: an order was created from it (resources/orders); like Merged, it cannot change any more.
   * `Frozen`: its prices stay as they were when it was frozen (cart-states.ts).
   */
  cartState: 'Active' | 'Merged' | 'Ordered' | 'Frozen';
  /** How a `Frozen` cart is frozen (CartFreezeCartAction); absent while Active. */
  freezeStrategy?: FreezeStrategy;
  /** Set by lockCart (CartLock.raml): only callers with `manage_locked_carts` may change the cart. */
  lock?: CartLock;
  /** `Quote`: the quotation cart of a staged quote (resources/staged-quotes), never a draft's value. */
  origin: CartOrigin | 'Quote';
  customerId?: string;
  customerEmail?: string;
  /** Selects line item prices; the customer's group unless the draft or setCustomerGroup names one. */
  customerGroup?: Reference<'customer-group'>;
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
  /** Present once every item (and the shipping method) has a TaxRate and the cart a shipping address (taxes.ts). */
  taxedPrice?: TaxedPrice;
  taxedShippingPrice?: TaxedPrice;
  shippingInfo?: CartShippingInfo;
  shippingAddress?: Address;
  billingAddress?: Address;
  itemShippingAddresses: Address[];
  discountCodes: DiscountCodeInfo[];
  /** Set when a cart discount targets the total price (discounts/cart-pricing.ts). */
  discountOnTotalPrice?: DiscountOnTotalPrice;
  /** CartAddPaymentAction / CartRemovePaymentAction (shared with orders, orders/payments.ts). */
  paymentInfo?: PaymentInfo;
  directDiscounts: DirectDiscount[];
  inventoryMode: InventoryMode;
  taxMode: TaxMode;
  priceRoundingMode: TaxRoundingMode;
  taxRoundingMode: TaxRoundingMode;
  taxCalculationMode: TaxCalculationMode;
  shippingMode: ShippingMode;
  /** The shippings of a `Multiple` cart (multi-shipping.ts). */
  shipping: CartShipping[];
  /** The gift discounts whose gift line item was removed (gift-line-items.ts): they no longer apply to the cart. */
  refusedGifts: Array<Reference<'cart-discount'>>;
  shippingRateInput?: ShippingRateInput;
  /** The custom fields of a custom shipping method (CartSetCustomShippingMethodAction.custom). */
  shippingCustomFields?: CustomFields;
  custom?: CustomFields;
  /** Days without a modification after which the cart is deleted (retention.ts). */
  deleteDaysAfterLastModification: number;
}

/** Custom fields of carts use the platform's resource type id `order` (Types for orders and carts). */
export const CART_CUSTOM_FIELDS_TYPE_ID = 'order';
