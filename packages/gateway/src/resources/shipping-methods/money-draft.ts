import { invalidInput, requiredField } from '@herald/model';
import { asDraft } from '../shared/validation.js';
import { centPrecision, currencyCode, isCentAmount, type CentPrecisionMoney } from '../shared/money.js';

/**
 * A Money draft of a shipping rate (types/shipping-method/ShippingRateDraft.raml `price`,
 * `freeAbove`, the tiers' `price`): any currency, a non-negative amount, answered in cent precision.
 * With `currency`, it must be the rate's currency: a rate is the price in one currency.
 */
export function rateMoney(value: unknown, field: string, currency?: string): CentPrecisionMoney {
  if (value === undefined || value === null) throw requiredField(field);
  const money = asDraft(value, field);
  const code = currencyCode(money.currencyCode, `${field}.currencyCode`);
  if (currency !== undefined && code !== currency) {
    throw invalidInput(`'${field}' is in ${code} but the shipping rate's price is in ${currency}.`, { field, invalidValue: code });
  }
  if (!isCentAmount(money.centAmount, false)) {
    throw invalidInput(`'${field}.centAmount' must be a non-negative integer (minor units of the currency).`, { field, invalidValue: money.centAmount });
  }
  return centPrecision(code, money.centAmount);
}
