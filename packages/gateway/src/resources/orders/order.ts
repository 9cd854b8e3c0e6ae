import type { BaseResource, CustomFields, KeyReference, Reference } from '@herald/model';
import type {
  CartOrigin,
  CustomLineItem,
  DirectDiscount,
  DiscountCodeInfo,
  DiscountOnTotalPrice,
  InventoryMode,
  LineItem,
  ShippingMode,
  ShippingRateInput,
  TaxCalculationMode,
  TaxMode,
  TaxRoundingMode,
} from '../carts/cart.js';
import type { TaxedPrice } from '../quote-requests/quote-request.js';
import type { EstimatedDelivery } from '../carts/shipping.js';
import type { Address } from '../shared/address.js';
import type { CentPrecisionMoney } from '../shared/money.js';
import type { PaymentInfo } from './payments.js';

/** Reference OrderState, ShipmentState and PaymentState. */
export const ORDER_STATES = ['Open', 'Confirmed', 'Complete', 'Cancelled'] as const;
export const SHIPMENT_STATES = ['Shipped', 'Delivered', 'Ready', 'Pending', 'Delayed', 'Partial', 'Backorder', 'Canceled'] as const;
export const PAYMENT_STATES = ['BalanceDue', 'Failed', 'Pending', 'CreditOwed', 'Paid'] as const;
export type OrderState = (typeof ORDER_STATES)[number];
export type ShipmentState = (typeof SHIPMENT_STATES)[number];
export type PaymentState = (typeof PAYMENT_STATES)[number];

/** Reference ItemState: how many units of an item are in which LineItemState. */
export interface ItemState {
  quantity: number;
  state: Reference<'state'>;
}

/** An order's items: the cart's, with their states (reference LineItem.state, CustomLineItem.state). */
export type OrderLineItem = Omit<LineItem, 'state'> & { state: ItemState[] };
export type OrderCustomLineItem = Omit<CustomLineItem, 'state'> & { state: ItemState[] };

/** Reference DeliveryItem: units of a line item or custom line item (by id). */
export interface DeliveryItem {
  id: string;
  quantity: number;
}

export interface ParcelMeasurements {
  heightInMillimeter?: number;
  lengthInMillimeter?: number;
  widthInMillimeter?: number;
  weightInGram?: number;
}

export interface TrackingData {
  trackingId?: string;
  carrier?: string;
  provider?: string;
  providerTransaction?: string;
  isReturn?: boolean;
}

export interface Parcel {
  id: string;
  key?: string;
  createdAt: string;
  measurements?: ParcelMeasurements;
  trackingData?: TrackingData;
  items: DeliveryItem[];
  custom?: CustomFields;
}

export interface Delivery {
  id: string;
  key?: string;
  createdAt: string;
  items: DeliveryItem[];
  parcels: Parcel[];
  address?: Address;
  custom?: CustomFields;
}

/**
 * Reference ShippingInfo, the holder of an order's deliveries. Herald has no shipping methods: an
 * order gets one when its first delivery is added, named as such, priced at zero, so deliveries
 * live where the reference's clients read them (`shippingInfo.deliveries`).
 */
export interface ShippingInfo {
  shippingMethodName: string;
  price: CentPrecisionMoney;
  shippingRate: { price: CentPrecisionMoney; tiers: unknown[] };
  shippingMethodState: 'MatchesCart' | 'DoesNotMatchCart';
  deliveries: Delivery[];
  /** Reference ShippingInfo.estimatedDelivery (OrderSetEstimatedDeliveryAction). */
  estimatedDelivery?: EstimatedDelivery;
}

/** Reference Shipping: one shipping of a `Multiple` order, copied from its cart (orders/from-cart.ts). */
export interface OrderShipping {
  shippingKey: string;
  shippingInfo: ShippingInfo;
  shippingAddress: Address;
  shippingRateInput?: ShippingRateInput;
  shippingCustomFields?: CustomFields;
}

export const RETURN_SHIPMENT_STATES = ['Advised', 'Returned', 'BackInStock', 'Unusable'] as const;
export const RETURN_PAYMENT_STATES = ['NonRefundable', 'Initial', 'Refunded', 'NotRefunded'] as const;
export type ReturnShipmentState = (typeof RETURN_SHIPMENT_STATES)[number];
export type ReturnPaymentState = (typeof RETURN_PAYMENT_STATES)[number];

/** Reference SyncInfo: one export or import of the order through a channel. */
export interface SyncInfo {
  channel: Reference<'channel'>;
  externalId?: string;
  syncedAt: string;
}

/** Reference ReturnItem: a LineItemReturnItem or a CustomLineItemReturnItem. */
export type ReturnItem = {
  id: string;
  key?: string;
  quantity: number;
  comment?: string;
  shipmentState: ReturnShipmentState;
  paymentState: ReturnPaymentState;
  custom?: CustomFields;
  createdAt: string;
  lastModifiedAt: string;
} & ({ type: 'LineItemReturnItem'; lineItemId: string } | { type: 'CustomLineItemReturnItem'; customLineItemId: string });

export interface ReturnInfo {
  items: ReturnItem[];
  returnTrackingId?: string;
  returnDate?: string;
}

/**
 * Reference Order, with the fields Herald can fill: copied from the cart or quote it was made
 * from, then changed by the order's update actions (states, deliveries, returns, …); `shipping`
 * holds the Shippings of an order made from a `Multiple` cart.
 */
export interface Order extends BaseResource {
  orderNumber?: string;
  purchaseOrderNumber?: string;
  customerId?: string;
  customerEmail?: string;
  anonymousId?: string;
  businessUnit?: KeyReference<'business-unit'>;
  store?: KeyReference<'store'>;
  lineItems: OrderLineItem[];
  customLineItems: OrderCustomLineItem[];
  totalPrice: CentPrecisionMoney;
  taxedPrice?: TaxedPrice;
  priceRoundingMode?: TaxRoundingMode;
  taxMode?: TaxMode;
  taxRoundingMode?: TaxRoundingMode;
  taxCalculationMode?: TaxCalculationMode;
  inventoryMode?: InventoryMode;
  billingAddress?: Address;
  shippingAddress?: Address;
  shippingMode: ShippingMode;
  shipping: OrderShipping[];
  shippingInfo?: ShippingInfo;
  /** Reference Order.shippingCustomFields: the `Single` shipping method's custom fields (setShippingCustomType). */
  shippingCustomFields?: CustomFields;
  shippingRateInput?: ShippingRateInput;
  itemShippingAddresses: Address[];
  discountCodes: DiscountCodeInfo[];
  discountOnTotalPrice?: DiscountOnTotalPrice;
  directDiscounts: DirectDiscount[];
  /** The cart's refused gift discounts (carts/gift-line-items.ts). */
  refusedGifts: Array<Reference<'cart-discount'>>;
  country?: string;
  locale?: string;
  origin: CartOrigin | 'Quote';
  cart?: Reference<'cart'>;
  quote?: Reference<'quote'>;
  orderState: OrderState;
  shipmentState?: ShipmentState;
  paymentState?: PaymentState;
  state?: Reference<'state'>;
  syncInfo: SyncInfo[];
  returnInfo: ReturnInfo[];
  paymentInfo?: PaymentInfo;
  custom?: CustomFields;
}

/** Custom fields of orders (and carts) use Types for the resource type id `order`. */
export const ORDER_CUSTOM_FIELDS_TYPE_ID = 'order';
