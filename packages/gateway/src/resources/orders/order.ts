import type { BaseResource, CustomFields, KeyReference, Reference } from '@herald/model';
import type {
  CartOrigin, CustomLineItem, DirectDiscount, DiscountCodeInfo, InventoryMode, LineItem, ShippingMode, ShippingRateInput,
  TaxCalculationMode, TaxMode, TaxRoundingMode,
} from '../carts/cart.js';
import type { TaxedPrice } from '../quote-requests/quote-request.js';
import type { Address } from '../shared/address.js';
import type { CentPrecisionMoney } from '../shared/money.js';

/** Reference OrderState, ShipmentState and PaymentState. */
export const ORDER_STATES = ['Open', 'Confirmed', 'Complete', 'Cancelled'] as const;
export const SHIPMENT_STATES = ['Shipped', 'Delivered', 'Ready', 'Pending', 'Delayed', 'Partial', 'Backorder', 'Canceled'] as const;
export const PAYMENT_STATES = ['BalanceDue', 'Failed', 'Pending', 'CreditOwed', 'Paid'] as const;
export type OrderState = (typeof ORDER_STATES)[number];
export type ShipmentState = (typeof SHIPMENT_STATES)[number];
export type PaymentState = (typeof PAYMENT_STATES)[number];

/**
 * Reference Order, with the fields Herald can fill: copied from the cart or quote it was made
 * from. `shipping`, `refusedGifts`, `syncInfo` and `returnInfo` stay empty (no shipping methods,
 * cart discounts, synchronisation or returns in Herald).
 */
export interface Order extends BaseResource {
  orderNumber?: string;
  purchaseOrderNumber?: string;
  customerId?: string;
  customerEmail?: string;
  anonymousId?: string;
  businessUnit?: KeyReference<'business-unit'>;
  store?: KeyReference<'store'>;
  lineItems: LineItem[];
  customLineItems: CustomLineItem[];
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
  shipping: never[];
  shippingRateInput?: ShippingRateInput;
  itemShippingAddresses: Address[];
  discountCodes: DiscountCodeInfo[];
  directDiscounts: DirectDiscount[];
  refusedGifts: never[];
  country?: string;
  locale?: string;
  origin: CartOrigin | 'Quote';
  cart?: Reference<'cart'>;
  quote?: Reference<'quote'>;
  orderState: OrderState;
  shipmentState?: ShipmentState;
  paymentState?: PaymentState;
  state?: Reference<'state'>;
  syncInfo: never[];
  returnInfo: never[];
  custom?: CustomFields;
}

/** Custom fields of orders (and carts) use Types for the resource type id `order`. */
export const ORDER_CUSTOM_FIELDS_TYPE_ID = 'order';
