import type { Rule } from './rules.js';

/** The Herald processes that read the environment: `herald serve` and `herald-delivery`. */
export type HeraldProcess = 'herald serve' | 'herald-delivery';

export const HERALD_PROCESSES: readonly HeraldProcess[] = ['herald serve', 'herald-delivery'];

/** One environment variable: what reads it, how it is parsed, and its value when unset or empty. */
export interface Variable<T> {
  readonly name: string;
  readonly readBy: readonly HeraldProcess[];
  readonly description: string;
  readonly rule: Rule<NonNullable<T>>;
  readonly fallback: T;
  /** The default as documented: the fallback shown by the rule, unless it is computed at start. */
  readonly shownDefault: string | undefined;
  /** Never echoed in messages (a passphrase, a client secret, a password in a URL). */
  readonly secret: boolean;
}

interface SpecBase<T> {
  name: string;
  readBy: readonly HeraldProcess[];
  description: string;
  rule: Rule<T>;
  /** For a default computed at start (`host-pid-random`), what the documentation says instead. */
  shownDefault?: string;
  secret?: boolean;
}

/** A variable with a value when unset or empty. */
export function defineVariable<T>(spec: SpecBase<T> & { fallback: NoInfer<T> }): Variable<T> {
  const shown = spec.shownDefault ?? spec.rule.show(spec.fallback);
  return build(spec, spec.fallback, shown === '' ? undefined : shown);
}

/** A variable that may stay unset (undefined). */
export function optionalVariable<T>(spec: SpecBase<T>): Variable<T | undefined> {
  return build(spec, undefined, spec.shownDefault);
}

function build<T, F extends T | undefined>(spec: SpecBase<T>, fallback: F, shownDefault: string | undefined): Variable<F | T> {
  return Object.freeze({
    name: spec.name,
    readBy: Object.freeze([...spec.readBy]),
    description: spec.description,
    rule: spec.rule as Rule<NonNullable<F | T>>,
    fallback,
    shownDefault,
    secret: spec.secret ?? false,
  });
}
