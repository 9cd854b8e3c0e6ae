import { invalidInput } from '@herald/model';

/** Money as a client sends it (§2.1 "Money and price types"): ISO 4217 code and minor units. */
export interface Money {
  currencyCode: string;
  centAmount: number;
}

/** Money as Herald answers it: the platform's cent-precision shape, with the currency's digits. */
export interface CentPrecisionMoney extends Money {
  type: 'centPrecision';
  fractionDigits: number;
}

export const CURRENCY_CODE = /^[A-Z]{3}$/;

export function isCurrencyCode(value: unknown): value is string {
  return typeof value === 'string' && CURRENCY_CODE.test(value);
}

/** Minor units that JSON numbers hold exactly: `1e400` parses to Infinity and would be stored as null. */
export function isCentAmount(value: unknown, allowNegative: boolean): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && (allowNegative || value >= 0);
}

/** Money in any currency (custom fields of type Money); the amount may be negative. */
export function isMoney(value: unknown): value is Money {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const money = value as Partial<Record<keyof Money, unknown>>;
  return isCurrencyCode(money.currencyCode) && isCentAmount(money.centAmount, true);
}

export function currencyCode(value: unknown, field: string): string {
  if (!isCurrencyCode(value)) {
    throw invalidInput(`'${field}' must be an ISO 4217 currency code such as "EUR".`, { field, invalidValue: value });
  }
  return value;
}

/**
 * Minor units per currency code, remembered: building an Intl.NumberFormat per amount was 5 % of
 * the gateway's CPU in the catalogue bench's cart creates. Codes are three letters, so the map
 * stays small whatever the input.
 */
const FRACTION_DIGITS = new Map<string, number>();

/** ISO 4217 minor units from the runtime's ICU data (EUR 2, JPY 0, KWD 3). */
export function fractionDigitsOf(currency: string): number {
  let digits = FRACTION_DIGITS.get(currency);
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    FRACTION_DIGITS.set(currency, digits);
  }
  return digits;
}

export function centPrecision(currency: string, centAmount: number): CentPrecisionMoney {
  return { type: 'centPrecision', currencyCode: currency, centAmount, fractionDigits: fractionDigitsOf(currency) };
}

function safeCentAmount(value: unknown, field: string, allowNegative: boolean): number {
  if (!isCentAmount(value, allowNegative)) {
    const range = allowNegative ? 'an integer' : 'a non-negative integer';
    throw invalidInput(`'${field}.centAmount' must be ${range} (minor units of the currency).`, { field, invalidValue: value });
  }
  return value;
}

/**
 * A Money draft in the cart's currency. Negative amounts are allowed only where the platform
 * allows them (custom line items may be discounts); line item prices are never negative.
 */
export function moneyInCurrency(value: unknown, field: string, currency: string, allowNegative = false): CentPrecisionMoney {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidInput(`'${field}' must be Money: {"currencyCode": "EUR", "centAmount": 1000}.`, { field });
  }
  const money = value as Partial<Record<keyof Money, unknown>>;
  const code = currencyCode(money.currencyCode, `${field}.currencyCode`);
  if (code !== currency) {
    throw invalidInput(`'${field}' is in ${code} but the cart's currency is ${currency}.`, { field, invalidValue: code });
  }
  return centPrecision(currency, safeCentAmount(money.centAmount, field, allowNegative));
}

/** `unit × quantity`, refusing totals that would lose precision in JSON numbers. */
export function multiply(unit: CentPrecisionMoney, quantity: number, field: string): CentPrecisionMoney {
  const centAmount = unit.centAmount * quantity;
  if (!Number.isSafeInteger(centAmount)) throw invalidInput(`The total of '${field}' is too large.`, { field });
  return { ...unit, centAmount };
}

export function sum(currency: string, amounts: readonly CentPrecisionMoney[]): CentPrecisionMoney {
  const centAmount = amounts.reduce((total, money) => total + money.centAmount, 0);
  if (!Number.isSafeInteger(centAmount)) throw invalidInput('The cart total is too large.');
  return centPrecision(currency, centAmount);
}
