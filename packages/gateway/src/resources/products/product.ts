import type { BaseResource, CustomFields, LocalizedString, Reference } from '@herald/model';
import type { Asset } from '../shared/assets.js';
import type { DiscountedPrice } from '../discounts/product-pricing.js';
import type { CentPrecisionMoney } from '../shared/money.js';
import type { ReviewRatingStatistics } from '../reviews/statistics.js';

export const PRODUCT_TYPE_ID = 'product';

/** The reference's PriceTier (types/common/PriceTier.raml). */
export interface PriceTier {
  minimumQuantity: number;
  value: CentPrecisionMoney;
}

/** The reference's Price (types/common/Price.raml), embedded in a variant. */
export interface Price {
  id: string;
  key?: string;
  value: CentPrecisionMoney;
  country?: string;
  customerGroup?: Reference<'customer-group'>;
  channel?: Reference<'channel'>;
  validFrom?: string;
  validUntil?: string;
  /** Set by ProductSetDiscountedPriceAction for an `external` ProductDiscount. */
  discounted?: DiscountedPrice;
  tiers?: PriceTier[];
  custom?: CustomFields;
}

/** The reference's Image (types/common/Image.raml). */
export interface Image {
  url: string;
  dimensions: { w: number; h: number };
  label?: string;
}

export interface Attribute {
  name: string;
  value: unknown;
}

/** The reference's ProductVariant (types/product/ProductVariant.raml); ids are 1..n per product. */
export interface ProductVariant {
  id: number;
  sku?: string;
  key?: string;
  prices: Price[];
  attributes: Attribute[];
  images: Image[];
  assets: Asset[];
}

/** The reference's SearchKeywords: per locale, a list of `{text, suggestTokenizer?}`. */
export type SearchKeywords = Record<string, Array<{ text: string; suggestTokenizer?: Record<string, unknown> }>>;

/** The reference's ProductData: one of the two versions (current, staged) of a product's data. */
export interface ProductData {
  name: LocalizedString;
  categories: Array<Reference<'category'>>;
  categoryOrderHints?: Record<string, string>;
  description?: LocalizedString;
  slug: LocalizedString;
  metaTitle?: LocalizedString;
  metaDescription?: LocalizedString;
  metaKeywords?: LocalizedString;
  masterVariant: ProductVariant;
  variants: ProductVariant[];
  searchKeywords: SearchKeywords;
  /** Product-level attributes (AttributeDefinition.level Product), shared by every variant. */
  attributes: Attribute[];
  /** Set by ProductSetDefaultVariantAction in `Modular` projects only (default-variant.ts). */
  defaultVariant?: Reference<'variant'>;
}

/** The reference's ProductCatalogData. */
export interface ProductCatalogData {
  published: boolean;
  current: ProductData;
  staged: ProductData;
  hasStagedChanges: boolean;
}

/** The reference's Product (types/product/Product.raml). */
export interface Product extends BaseResource {
  key?: string;
  productType: Reference<'product-type'>;
  masterData: ProductCatalogData;
  taxCategory?: Reference<'tax-category'>;
  state?: Reference<'state'>;
  priceMode: 'Embedded' | 'Standalone';
  /** Kept by reviews of the product that count (resources/reviews/statistics.ts); absent without any. */
  reviewRatingStatistics?: ReviewRatingStatistics;
}

/** Every variant of `data`, the master variant first. */
export function allVariants(data: ProductData): ProductVariant[] {
  return [data.masterVariant, ...data.variants];
}
