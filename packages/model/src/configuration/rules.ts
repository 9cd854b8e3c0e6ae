/**
 * How the text of an environment variable becomes a value. One set of rules for every Herald
 * process (docs/configuration.md): an empty value is unset, integers are decimal digits only (no
 * `0x1F90`, no `1e5`, no sign, no spaces), and a refusal names the variable and what it accepts.
 */

/** A refused value; `detail` replaces the echo of the value (secrets are never echoed). */
export interface Refusal {
  readonly refused: true;
  readonly detail?: string;
}

export type Parsed<T> = { readonly refused: false; readonly value: T } | Refusal;

export const accepted = <T>(value: T): Parsed<T> => ({ refused: false, value });
export const refused = (detail?: string): Refusal => (detail === undefined ? { refused: true } : { refused: true, detail });

export type RuleKind = 'integer' | 'one-of' | 'flag' | 'text' | 'custom';

export interface Rule<T> {
  readonly kind: RuleKind;
  /** Completes "NAME must be …" in messages and the "Accepts" column of the documentation. */
  readonly accepts: string;
  parse(text: string): Parsed<T>;
  /** A value as the documentation shows it (a flag's `on`, not `true`). */
  show(value: T): string;
}

const DECIMAL = /^[0-9]+$/;

export function integer(min: number, max: number): Rule<number> {
  return {
    kind: 'integer',
    accepts: `an integer from ${min} to ${max}`,
    parse: (text) => {
      const value = DECIMAL.test(text) ? Number(text) : Number.NaN;
      return Number.isSafeInteger(value) && value >= min && value <= max ? accepted(value) : refused();
    },
    show: String,
  };
}

export function oneOf<const T extends string>(values: readonly T[]): Rule<T> {
  const known: ReadonlySet<string> = new Set(values);
  return {
    kind: 'one-of',
    accepts: `one of ${values.join(', ')}`,
    parse: (text) => (known.has(text) ? accepted(text as T) : refused()),
    show: (value) => value,
  };
}

/** A switch spelled `on`/`off` or `true`/`false`, as each variable has always been spelled. */
export function flag(on: string, off: string): Rule<boolean> {
  return {
    kind: 'flag',
    accepts: `"${on}" or "${off}"`,
    parse: (text) => (text === on ? accepted(true) : text === off ? accepted(false) : refused()),
    show: (value) => (value ? on : off),
  };
}

/** Any non-empty text; `minLength` for keys and passphrases. */
export function text(options: { accepts?: string; minLength?: number } = {}): Rule<string> {
  const minLength = options.minLength ?? 1;
  return {
    kind: 'text',
    accepts: options.accepts ?? (minLength > 1 ? `at least ${minLength} characters` : 'any text'),
    parse: (value) => (value.length >= minLength ? accepted(value) : refused(`got ${value.length}`)),
    show: (value) => value,
  };
}

/** A rule of its own for one variable (a list, a pair); `parse` explains a refusal in `detail`. */
export function custom<T>(accepts: string, parse: (text: string) => Parsed<T>, show: (value: T) => string): Rule<T> {
  return { kind: 'custom', accepts, parse, show };
}
