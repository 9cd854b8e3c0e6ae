import type { Price, ProductVariant } from '../../products/product.js';
import type { TypedMoney } from '../../shared/typed-money.js';
import type { SelectablePrice } from '../standalone-pricing.js';

/**
 * The reference's ScopedPrice (types/common/ScopedPrice.raml): the selected price, with its current
 * value; TypedMoney, as a Standalone product's price may be high-precision.
 */
export type ScopedPrice = SelectablePrice & { currentValue: TypedMoney };

/** A variant as search answers it (ProductVariant.raml's search-only fields). */
export type SearchVariant = ProductVariant & {
  price?: Price | SelectablePrice;
  scopedPrice?: ScopedPrice;
  scopedPriceDiscounted?: boolean;
  isMatchingVariant?: boolean;
};
