import type { BaseResource, CustomFields, KeyReference, LocalizedString, Reference } from '@herald/model';
import type { CentPrecisionMoney } from '../shared/money.js';
import type { TypedMoney } from '../shared/typed-money.js';

export const CART_DISCOUNT_TYPE_ID = 'cart-discount';

export const APPLICATION_MODES = ['ProportionateDistribution', 'EvenDistribution', 'IndividualApplication'] as const;
export type DiscountApplicationMode = (typeof APPLICATION_MODES)[number];
export const SELECTION_MODES = ['Cheapest', 'MostExpensive'] as const;
export type SelectionMode = (typeof SELECTION_MODES)[number];
export const STACKING_MODES = ['Stacking', 'StopAfterThisDiscount'] as const;
export type StackingMode = (typeof STACKING_MODES)[number];

/** The reference's CartDiscountValue (types/cart-discount/CartDiscountValue*.raml). */
export type CartDiscountValue =
  | { type: 'relative'; permyriad: number; applicationMode?: DiscountApplicationMode }
  | { type: 'absolute'; money: CentPrecisionMoney[]; applicationMode?: DiscountApplicationMode }
  | { type: 'fixed'; money: TypedMoney[]; applicationMode?: DiscountApplicationMode }
  | {
      type: 'giftLineItem';
      product: Reference<'product'>;
      variantId: number;
      supplyChannel?: Reference<'channel'>;
      distributionChannel?: Reference<'channel'>;
    };

/** The reference's PatternComponent: CountOnLineItemUnits / CountOnCustomLineItemUnits. */
export interface PatternComponent {
  type: 'CountOnLineItemUnits' | 'CountOnCustomLineItemUnits';
  predicate: string;
  minCount?: number;
  maxCount?: number;
  excludeCount?: number;
}

/** The reference's CartDiscountTarget and its subtypes. */
export type CartDiscountTarget =
  | { type: 'lineItems' | 'customLineItems'; predicate: string }
  | { type: 'shipping' }
  | { type: 'totalPrice' }
  | {
      type: 'multiBuyLineItems' | 'multiBuyCustomLineItems';
      predicate: string;
      triggerQuantity: number;
      discountedQuantity: number;
      maxOccurrence?: number;
      selectionMode: SelectionMode;
    }
  | { type: 'pattern'; triggerPattern: PatternComponent[]; targetPattern: PatternComponent[]; maxOccurrence?: number; selectionMode: SelectionMode };

/** The reference's RecurringOrderScope (beta): which orders the discount applies to. */
export type RecurringOrderScope =
  | { type: 'NonRecurringOrdersOnly' }
  | { type: 'RecurringOrdersOnly' }
  | { type: 'AnyOrder' }
  | { type: 'ApplicableRecurrencePolicies'; recurrencePolicies: Array<Reference<'recurrence-policy'>> };

/** The reference's CartDiscount (types/cart-discount/CartDiscount.raml). */
export interface CartDiscount extends BaseResource {
  key?: string;
  name: LocalizedString;
  description?: LocalizedString;
  value: CartDiscountValue;
  cartPredicate: string;
  target?: CartDiscountTarget;
  sortOrder: string;
  stores: Array<KeyReference<'store'>>;
  isActive: boolean;
  validFrom?: string;
  validUntil?: string;
  requiresDiscountCode: boolean;
  references: Reference[];
  stackingMode: StackingMode;
  custom?: CustomFields;
  discountGroup?: Reference<'discount-group'>;
  recurringOrderScope: RecurringOrderScope;
}
