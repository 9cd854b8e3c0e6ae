import { invalidInput, invalidOperation } from '@herald/model';
import { centPrecision, currencyCode, isCentAmount, type CentPrecisionMoney } from '../shared/money.js';
import { typedMoney, type TypedMoney } from '../shared/typed-money.js';

function listOf(value: unknown, field: string): unknown[] {
  if (!Array.isArray(value) || value.length > 500) throw invalidInput(`'${field}' must be an array of Money values.`, { field });
  // ProductDiscountValueAbsoluteDraft / CartDiscountValueAbsoluteDraft.money: "If the array is empty or
  // has multiple values of the same currency, the API returns an InvalidOperation error."
  if (value.length === 0) throw invalidOperation(`'${field}' must hold at least one Money value.`);
  return value;
}

function assertOneCurrencyEach(money: readonly { currencyCode: string }[], field: string): void {
  const currencies = money.map((each) => each.currencyCode);
  const twice = currencies.find((currency, index) => currencies.indexOf(currency) !== index);
  if (twice !== undefined) throw invalidOperation(`'${field}' holds more than one value in ${twice}.`);
}

/** `money` of an absolute discount value: Money drafts, at most one per currency, non-negative. */
export function absoluteMoney(value: unknown, field: string): CentPrecisionMoney[] {
  const money = listOf(value, field).map((item, index) => {
    const each = `${field}[${index}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw invalidInput(`'${each}' must be Money.`, { field: each });
    const draft = item as { currencyCode?: unknown; centAmount?: unknown };
    const currency = currencyCode(draft.currencyCode, `${each}.currencyCode`);
    if (!isCentAmount(draft.centAmount, false)) {
      throw invalidInput(`'${each}.centAmount' must be a non-negative integer.`, { field: `${each}.centAmount`, invalidValue: draft.centAmount });
    }
    return centPrecision(currency, draft.centAmount);
  });
  assertOneCurrencyEach(money, field);
  return money;
}

/** `money` of a fixed cart discount value: TypedMoneyDrafts (cent or high precision), one per currency. */
export function fixedMoney(value: unknown, field: string): TypedMoney[] {
  const money = listOf(value, field).map((item, index) => typedMoney(item, `${field}[${index}]`));
  assertOneCurrencyEach(money, field);
  return money;
}

/** `permyriad` of a relative value: an integer from 0 to 10000 (100 %). */
export function permyriadField(value: unknown, field = 'permyriad'): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 10_000) {
    throw invalidInput(`'${field}' must be an integer from 0 to 10000 (per ten thousand).`, { field, invalidValue: value });
  }
  return value;
}
