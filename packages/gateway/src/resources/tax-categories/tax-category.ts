import type { BaseResource } from '@herald/model';

export const TAX_CATEGORY_TYPE_ID = 'tax-category';

/** The reference's SubRate (types/tax-category/SubRate.raml): one tax of a combined rate. */
export interface SubRate {
  name: string;
  amount: number;
}

/**
 * The reference's TaxRate as a TaxCategory holds it (types/tax-category/TaxRate.raml): Herald
 * gives it an `id`; `country` and `state` together appear once per TaxCategory.
 */
export interface TaxRate {
  id: string;
  key?: string;
  name: string;
  /** 0..1; with sub-rates, their sum. */
  amount: number;
  includedInPrice: boolean;
  country: string;
  state?: string;
  subRates?: SubRate[];
}

/** The reference's TaxCategory (types/tax-category/TaxCategory.raml). */
export interface TaxCategory extends BaseResource {
  key?: string;
  name: string;
  description?: string;
  rates: TaxRate[];
}
