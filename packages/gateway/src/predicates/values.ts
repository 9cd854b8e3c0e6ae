import type { ComparisonOperator, Literal } from './ast.js';

/**
 * Runtime meaning of values in a predicate: how a field's value compares with another value.
 * Comparisons between values that cannot be compared (a string and a number, Money in two
 * currencies, a missing field) are false, never an error: the subject decides, not the text.
 */

export interface MoneyValue {
  currencyCode: string;
  centAmount: number;
  fractionDigits?: number;
}

export function isMoneyValue(value: unknown): value is MoneyValue {
  if (typeof value !== 'object' || value === null) return false;
  const money = value as Partial<MoneyValue>;
  return typeof money.currencyCode === 'string' && typeof money.centAmount === 'number';
}

/** The platform's MoneyString: "42000.00 USD", only a dot as decimal separator. */
const MONEY_STRING = /^(-?)([0-9]+)(?:\.([0-9]+))?\s+([A-Z]{3})$/;

interface Decimal {
  units: bigint;
  scale: number;
}

function moneyDecimal(money: MoneyValue): Decimal {
  return { units: BigInt(money.centAmount), scale: money.fractionDigits ?? 2 };
}

function parseMoneyString(text: string): { currencyCode: string; amount: Decimal } | undefined {
  const match = MONEY_STRING.exec(text.trim());
  if (match === null) return undefined;
  const [, sign, whole, fraction = '', currencyCode = ''] = match;
  const units = BigInt(`${whole}${fraction}`) * (sign === '-' ? -1n : 1n);
  return { currencyCode, amount: { units, scale: fraction.length } };
}

function compareDecimals(a: Decimal, b: Decimal): number {
  const scale = Math.max(a.scale, b.scale);
  const left = a.units * 10n ** BigInt(scale - a.scale);
  const right = b.units * 10n ** BigInt(scale - b.scale);
  return left < right ? -1 : left > right ? 1 : 0;
}

function compareMoney(money: MoneyValue, other: unknown): number | undefined {
  if (isMoneyValue(other)) {
    return other.currencyCode === money.currencyCode ? compareDecimals(moneyDecimal(money), moneyDecimal(other)) : undefined;
  }
  if (typeof other !== 'string') return undefined;
  const parsed = parseMoneyString(other);
  if (parsed === undefined || parsed.currencyCode !== money.currencyCode) return undefined;
  return compareDecimals(moneyDecimal(money), parsed.amount);
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T[0-9:.]+(Z|[+-]\d{2}:\d{2})?)?$/;

function compareStrings(a: string, b: string): number {
  // Dates and date-times (createdAt, validFrom, Custom Fields of type DateTime) compare as instants.
  if (ISO_DATE.test(a) && ISO_DATE.test(b)) {
    const difference = Date.parse(a) - Date.parse(b);
    if (!Number.isNaN(difference)) return Math.sign(difference);
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** An enum or localized enum value (`{key, label}`) compares by its key. */
function scalarOf(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && !isMoneyValue(value) && typeof (value as { key?: unknown }).key === 'string') {
    return (value as { key: string }).key;
  }
  return value;
}

/** -1, 0 or 1 when `a` and `b` are comparable, undefined otherwise. */
export function compareValues(a: unknown, b: unknown): number | undefined {
  const left = scalarOf(a);
  const right = scalarOf(b);
  if (isMoneyValue(left)) return compareMoney(left, right);
  if (isMoneyValue(right)) {
    const reversed = compareMoney(right, left);
    return reversed === undefined ? undefined : -reversed;
  }
  if (typeof left === 'number' && typeof right === 'number') return Math.sign(left - right);
  if (typeof left === 'string' && typeof right === 'string') return compareStrings(left, right);
  if (typeof left === 'boolean' && typeof right === 'boolean') return left === right ? 0 : left ? 1 : -1;
  return undefined;
}

export function isPresent(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function holds(operator: ComparisonOperator, order: number | undefined): boolean {
  if (order === undefined) return false;
  switch (operator) {
    case '=':
      return order === 0;
    case '!=':
    case '<>':
      return order !== 0;
    case '<':
      return order < 0;
    case '>':
      return order > 0;
    case '<=':
      return order <= 0;
    case '>=':
      return order >= 0;
  }
}

/**
 * `left operator right`. A field holding several values (`categories.id`, a set Attribute) satisfies
 * `=` and the orderings when one of them does, and `!=` when none equals.
 */
export function compare(operator: ComparisonOperator, left: unknown, right: unknown): boolean {
  if (!isPresent(left) || !isPresent(right)) return false;
  if (operator === '!=' || operator === '<>') return !compare('=', left, right);
  if (Array.isArray(left)) return left.some((each) => compare(operator, each, right));
  if (Array.isArray(right)) return right.some((each) => compare(operator, left, each));
  return holds(operator, compareValues(left, right));
}

export function valuesOf(value: unknown): unknown[] {
  if (!isPresent(value)) return [];
  return Array.isArray(value) ? value : [value];
}

export function isEmptyValue(value: unknown): boolean {
  if (!isPresent(value)) return true;
  if (Array.isArray(value) || typeof value === 'string') return value.length === 0;
  if (typeof value === 'object' && !isMoneyValue(value)) return Object.keys(value as object).length === 0;
  return false;
}

/** The type name of a literal, for the compile-time check of literal-to-literal comparisons. */
export function literalType(value: Literal): 'string' | 'number' | 'boolean' {
  return typeof value as 'string' | 'number' | 'boolean';
}

/**
 * Reads `path` in `subject`. Passing through an array maps the rest of the path over its elements
 * (`categories.id` → every category's id); Attributes given as `[{name, value}]` are read by name.
 */
export function readPath(subject: unknown, path: readonly string[]): unknown {
  let current: unknown = subject;
  for (const [index, segment] of path.entries()) {
    if (!isPresent(current)) return undefined;
    if (Array.isArray(current)) {
      if (isAttributeList(current)) {
        current = current.find((attribute) => attribute.name === segment)?.value;
        continue;
      }
      return current.flatMap((element) => valuesOf(readPath(element, path.slice(index))));
    }
    if (typeof current !== 'object') return undefined;
    current = Object.hasOwn(current as object, segment) ? (current as Record<string, unknown>)[segment] : undefined;
  }
  return current;
}

function isAttributeList(value: readonly unknown[]): value is Array<{ name: string; value: unknown }> {
  return (
    value.length > 0 &&
    value.every((item) => typeof item === 'object' && item !== null && typeof (item as { name?: unknown }).name === 'string' && 'value' in item)
  );
}
