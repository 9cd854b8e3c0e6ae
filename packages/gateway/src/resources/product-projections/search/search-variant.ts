import type { Price, ProductVariant } from '../../products/product.js';

/** The reference's ScopedPrice (types/common/ScopedPrice.raml): the selected price, with its current value. */
export type ScopedPrice = Price & { currentValue: Price['value'] };

/** A variant as search answers it (ProductVariant.raml's search-only fields). */
export type SearchVariant = ProductVariant & {
  price?: Price;
  scopedPrice?: ScopedPrice;
  scopedPriceDiscounted?: boolean;
  isMatchingVariant?: boolean;
};
