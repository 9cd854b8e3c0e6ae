import type { BaseResource, CustomFields, KeyReference, Reference } from '@herald/model';
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
import type { TaxedPrice } from '../quote-requests/quote-request.js';
import type { Address } from '../shared/address.js';
import type { CentPrecisionMoney } from '../shared/money.js';

/** Reference QuoteState. */
export const QUOTE_STATES = ['Pending', 'Declined', 'DeclinedForRenegotiation', 'RenegotiationAddressed', 'Accepted', 'Withdrawn'] as const;
export type QuoteState = (typeof QUOTE_STATES)[number];

/** Reference Quote: the binding offer, copied from the staged quote and its quotation cart. */
export interface Quote extends BaseResource {
  key?: string;
  quoteState: QuoteState;
  quoteRequest: Reference<'quote-request'>;
  stagedQuote: Reference<'staged-quote'>;
  customer?: Reference<'customer'>;
  /** Quote.customerGroup: the quotation cart's, "used for Product Variant price selection". */
  customerGroup?: Reference<'customer-group'>;
  validTo?: string;
  sellerComment?: string;
  buyerComment?: string;
  store?: KeyReference<'store'>;
  businessUnit?: KeyReference<'business-unit'>;
  lineItems: LineItem[];
  customLineItems: CustomLineItem[];
  totalPrice: CentPrecisionMoney;
  taxedPrice?: TaxedPrice;
  shippingAddress?: Address;
  billingAddress?: Address;
  inventoryMode?: InventoryMode;
  taxMode: TaxMode;
  priceRoundingMode: TaxRoundingMode;
  taxRoundingMode: TaxRoundingMode;
  taxCalculationMode: TaxCalculationMode;
  country?: string;
  /** Quote.shippingInfo: the quotation cart's shipping, whose price is part of totalPrice. */
  shippingInfo?: CartShippingInfo;
  shippingRateInput?: ShippingRateInput;
  itemShippingAddresses: Address[];
  directDiscounts: DirectDiscount[];
  custom?: CustomFields;
  state?: Reference<'state'>;
  purchaseOrderNumber?: string;
}

/** Custom fields of quotes are defined by Types for the resource type id `quote`. */
export const QUOTE_CUSTOM_FIELDS_TYPE_ID = 'quote';

/** Reference Quote.validTo: "Once a Quote expires, it cannot be ordered." */
export function isExpired(quote: Pick<Quote, 'validTo'>, now: Date): boolean {
  return quote.validTo !== undefined && Date.parse(quote.validTo) < now.getTime();
}
