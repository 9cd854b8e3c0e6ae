import { invalidInput, requiredField } from '@herald/model';
import { centPrecision, currencyCode, fractionDigitsOf, isCentAmount, type CentPrecisionMoney } from './money.js';

/** The reference's HighPrecisionMoney: `centAmount` is `preciseAmount` rounded to the currency's digits. */
export interface HighPrecisionMoney {
  type: 'highPrecision';
  currencyCode: string;
  centAmount: number;
  preciseAmount: number;
  fractionDigits: number;
}

/** The reference's TypedMoney. */
export type TypedMoney = CentPrecisionMoney | HighPrecisionMoney;

/** HighPrecisionMoneyDraft.fractionDigits: `maximum: 20`. */
const MAX_FRACTION_DIGITS = 20;

function amount(value: unknown, field: string): number {
  if (!isCentAmount(value, false)) {
    throw invalidInput(`'${field}' must be a non-negative integer.`, { field, invalidValue: value });
  }
  return value;
}

/** `preciseAmount` in the currency's minor units, rounded half to even (as the platform rounds prices). */
function roundedToCents(preciseAmount: number, extraDigits: number): number {
  const divisor = 10 ** extraDigits;
  const quotient = Math.floor(preciseAmount / divisor);
  const remainder = preciseAmount - quotient * divisor;
  if (remainder * 2 > divisor || (remainder * 2 === divisor && quotient % 2 === 1)) return quotient + 1;
  return quotient;
}

function highPrecision(money: Record<string, unknown>, field: string, currency: string): HighPrecisionMoney {
  const digits = money.fractionDigits;
  const currencyDigits = fractionDigitsOf(currency);
  if (typeof digits !== 'number' || !Number.isInteger(digits) || digits <= currencyDigits || digits > MAX_FRACTION_DIGITS) {
    throw invalidInput(`'${field}.fractionDigits' must be an integer above ${currencyDigits} (the digits of ${currency}) and at most ${MAX_FRACTION_DIGITS}.`, {
      field: `${field}.fractionDigits`,
      invalidValue: digits,
    });
  }
  if (money.preciseAmount === undefined || money.preciseAmount === null) throw requiredField(`${field}.preciseAmount`);
  const preciseAmount = amount(money.preciseAmount, `${field}.preciseAmount`);
  const centAmount = roundedToCents(preciseAmount, digits - currencyDigits);
  return { type: 'highPrecision', currencyCode: currency, centAmount, preciseAmount, fractionDigits: digits };
}

/**
 * A price's Money or HighPrecisionMoneyDraft (StandalonePriceDraft.value, TypedMoneyDraft) as the
 * TypedMoney the price holds. Prices are never negative.
 */
export function typedMoney(value: unknown, field: string): TypedMoney {
  if (value === undefined || value === null) throw requiredField(field);
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidInput(`'${field}' must be Money: {"currencyCode": "EUR", "centAmount": 1000}.`, { field });
  }
  const money = value as Record<string, unknown>;
  const currency = currencyCode(money.currencyCode, `${field}.currencyCode`);
  if (money.type === 'highPrecision') return highPrecision(money, field, currency);
  if (money.type !== undefined && money.type !== null && money.type !== 'centPrecision') {
    throw invalidInput(`'${field}.type' must be centPrecision or highPrecision.`, { field: `${field}.type`, invalidValue: money.type });
  }
  if (money.centAmount === undefined || money.centAmount === null) throw requiredField(`${field}.centAmount`);
  return centPrecision(currency, amount(money.centAmount, `${field}.centAmount`));
}

/** Money that must be in `currency` (tiers, staged and discounted values of a price). */
export function typedMoneyIn(value: unknown, field: string, currency: string): TypedMoney {
  const money = typedMoney(value, field);
  if (money.currencyCode !== currency) {
    throw invalidInput(`'${field}' is in ${money.currencyCode} but the price is in ${currency}.`, { field, invalidValue: money.currencyCode });
  }
  return money;
}
