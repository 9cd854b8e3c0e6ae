/**
 * The options that were given a value: spread over defaults, an option passed as `undefined`
 * (an unset environment variable mapped through) must not erase its default.
 */
export function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
