import type { Parsed } from './rules.js';
import { HERALD_VARIABLE_LIST } from './table.js';
import type { HeraldProcess, Variable } from './variable.js';

/** A configuration a process must not start with: exit code 2 and this message on one line. */
export class ConfigurationError extends Error {
  override name = 'ConfigurationError';
}

export type Environment = Readonly<Record<string, string | undefined>>;

/** Herald's own prefix: a name under it that no process reads is a typo, never someone else's. */
const HERALD_PREFIX = 'HERALD_';

/** `HERALD_*` names that no Herald process reads, in the order the environment lists them. */
export function unknownVariables(env: Environment, table: readonly Variable<unknown>[] = HERALD_VARIABLE_LIST): string[] {
  const known = new Set(table.map((variable) => variable.name));
  return Object.keys(env).filter((name) => name.startsWith(HERALD_PREFIX) && !known.has(name));
}

/**
 * Reads one process's configuration from an environment, by the rules of the table. Creating it
 * refuses unknown `HERALD_*` names: any process accepts what another reads, so one environment file
 * can serve `herald serve` and `herald-delivery` alike, and a typo never falls back to a default.
 */
export class EnvironmentReader {
  constructor(
    private readonly env: Environment,
    private readonly process: HeraldProcess,
  ) {
    const unknown = unknownVariables(env);
    if (unknown.length > 0) {
      throw new ConfigurationError(`unknown variable(s) ${unknown.join(', ')}: no Herald process reads them (see docs/configuration.md)`);
    }
  }

  /** The variable's value by its rule, or its fallback when unset or empty. */
  read<T>(variable: Variable<T>): T {
    const raw = this.text(variable);
    return raw === undefined ? variable.fallback : this.accept(variable, variable.rule.parse(raw), raw);
  }

  /**
   * The variable's value by a parser of the process's own (one that needs what the model package
   * has not, such as node:net), with the same messages; undefined when unset or empty.
   */
  readWith<T, U>(variable: Variable<T>, parse: (text: string) => Parsed<U>): U | undefined {
    const raw = this.text(variable);
    return raw === undefined ? undefined : this.accept(variable, parse(raw), raw);
  }

  isSet(variable: Variable<unknown>): boolean {
    return this.text(variable) !== undefined;
  }

  private text(variable: Variable<unknown>): string | undefined {
    if (!variable.readBy.includes(this.process)) {
      // A programming error: the table says who reads what, and the documentation says it too.
      throw new Error(`${variable.name} is not read by ${this.process} (see its entry in the configuration table)`);
    }
    const raw = this.env[variable.name];
    return raw === undefined || raw === '' ? undefined : raw;
  }

  private accept<U>(variable: Variable<unknown>, parsed: Parsed<U>, raw: string): U {
    if (!parsed.refused) return parsed.value;
    throw new ConfigurationError(refusalMessage(variable, raw, parsed.detail));
  }
}

/** "NAME must be <accepts> (<detail>)"; the value itself only for variables that are not secret. */
export function refusalMessage(variable: Variable<unknown>, raw: string, detail?: string): string {
  const shown = detail ?? (variable.secret ? undefined : `got "${raw}"`);
  return `${variable.name} must be ${variable.rule.accepts}${shown === undefined ? '' : ` (${shown})`}`;
}
