/**
 * RAML 1.0 built-in type names the reference uses, and which JSON values each one admits.
 * Date and time types travel as strings (RAML 1.0 §Date; `datetime` is RFC 3339).
 */
const DATE = String.raw`\d{4}-\d{2}-\d{2}`;
const TIME = String.raw`\d{2}:\d{2}:\d{2}(?:\.\d+)?`;

const SCALARS = {
  string: (value: unknown) => typeof value === 'string',
  number: (value: unknown) => typeof value === 'number' && Number.isFinite(value),
  integer: (value: unknown) => typeof value === 'number' && Number.isInteger(value),
  boolean: (value: unknown) => typeof value === 'boolean',
  nil: (value: unknown) => value === null,
  datetime: matching(new RegExp(`^${DATE}T${TIME}(?:Z|[+-]\\d{2}:\\d{2})$`)),
  'datetime-only': matching(new RegExp(`^${DATE}T${TIME}$`)),
  'date-only': matching(new RegExp(`^${DATE}$`)),
  'time-only': matching(new RegExp(`^${TIME}$`)),
  any: () => true,
} as const satisfies Record<string, (value: unknown) => boolean>;

function matching(pattern: RegExp): (value: unknown) => boolean {
  return (value) => typeof value === 'string' && pattern.test(value);
}

export type ScalarName = keyof typeof SCALARS;

/** `object` and `array` are built-ins too, but they are structures, not scalars. */
export const STRUCTURE_NAMES = ['object', 'array'] as const;

export function isScalarName(name: string): name is ScalarName {
  return Object.hasOwn(SCALARS, name);
}

export function isBuiltinName(name: string): boolean {
  return isScalarName(name) || (STRUCTURE_NAMES as readonly string[]).includes(name);
}

export function admitsScalar(name: ScalarName, value: unknown): boolean {
  return SCALARS[name](value);
}

/** The words a violation uses for a scalar ("not a string", "not a datetime"). */
export function describeScalar(name: ScalarName): string {
  if (name === 'nil') return 'null';
  return /^[aeiou]/.test(name) ? `an ${name}` : `a ${name}`;
}
