import type { TaxedPrice } from '../carts/taxed-price.js';
import type { BaseResource, CustomFields, KeyReference, Reference } from '@herald/model';
import type { Address } from '../shared/address.js';
import type {
  CustomLineItem,
  DirectDiscount,
  InventoryMode,
  LineItem,
  ShippingRateInput,
  TaxCalculationMode,
  TaxMode,
  TaxRoundingMode,
} from '../carts/cart.js';
import type { CartShippingInfo } from '../carts/shipping.js';
import type { CentPrecisionMoney } from '../shared/money.js';

/** §2.3 QuoteRequestState values. */
export const QUOTE_REQUEST_STATES = ['Submitted', 'Accepted', 'Closed', 'Rejected', 'Cancelled'] as const;
export type QuoteRequestState = (typeof QUOTE_REQUEST_STATES)[number];

/** §2.3 TaxedPrice: the cart's, copied with its tax portions (carts/taxed-price.ts computes it). */
export type { TaxedPrice };

/**
 * §2.3 QuoteRequest; `customerGroup` and `shippingInfo` are the cart's (paymentInfo: Herald has no source for it).
 * `priceRoundingMode` is required by the reference's QuoteRequest type; `cart` (optional there)
 * names the cart the request was made from.
 */
export interface QuoteRequest extends BaseResource {
  key?: string;
  quoteRequestState: QuoteRequestState;
  comment?: string;
  customer: Reference<'customer'>;
  /** §2.3 "Set automatically": the cart's customer group, which priced its line items. */
  customerGroup?: Reference<'customer-group'>;
  store?: KeyReference<'store'>;
  businessUnit?: KeyReference<'business-unit'>;
  lineItems: LineItem[];
  customLineItems: CustomLineItem[];
  totalPrice: CentPrecisionMoney;
  taxedPrice?: TaxedPrice;
  shippingAddress?: Address;
  billingAddress?: Address;
  inventoryMode: InventoryMode;
  taxMode: TaxMode;
  priceRoundingMode: TaxRoundingMode;
  taxRoundingMode: TaxRoundingMode;
  taxCalculationMode: TaxCalculationMode;
  country?: string;
  /** §2.3 "Set automatically once the shipping method is set": the cart's, with its taxed price. */
  shippingInfo?: CartShippingInfo;
  shippingRateInput?: ShippingRateInput;
  itemShippingAddresses: Address[];
  directDiscounts: DirectDiscount[];
  state?: Reference<'state'>;
  cart?: Reference<'cart'>;
  custom?: CustomFields;
}

/** The reference's RoundingMode default (Project CartsConfiguration.priceRoundingMode). */
export const DEFAULT_PRICE_ROUNDING_MODE: TaxRoundingMode = 'HalfEven';

/** A quote request with every required field, also one stored before `priceRoundingMode` existed. */
export function withQuoteRequestDefaults(quoteRequest: QuoteRequest): QuoteRequest {
  const stored = quoteRequest as Omit<QuoteRequest, 'priceRoundingMode'> & { priceRoundingMode?: TaxRoundingMode };
  return { ...quoteRequest, priceRoundingMode: stored.priceRoundingMode ?? DEFAULT_PRICE_ROUNDING_MODE };
}
