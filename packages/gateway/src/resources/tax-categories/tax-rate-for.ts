import { mostSpecific, type AddressLocation } from '../zones/location.js';
import type { TaxCategory, TaxRate } from './tax-category.js';

/**
 * The TaxRate of `taxCategory` that applies to an address, for pricing a cart: the rate for its
 * country and state, else the rate for its country without a state (TaxRate.state is
 * case-sensitive, spelled as in the cart's shipping address). Undefined when none applies (the
 * platform's MissingTaxRateForCountry case).
 */
export function taxRateFor(taxCategory: Pick<TaxCategory, 'rates'>, address: AddressLocation): TaxRate | undefined {
  return mostSpecific(taxCategory.rates, address, (rate) => rate);
}
