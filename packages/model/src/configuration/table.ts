import { DELIVERY_VARIABLES } from './delivery-variables.js';
import { GATEWAY_VARIABLES } from './gateway-variables.js';
import type { HeraldProcess, Variable } from './variable.js';

/**
 * Every environment variable a Herald process reads, each once (PORT twice: it is a different port
 * to each process). The one source of parsing, of the unknown-name check and of
 * docs/configuration.md.
 */
export const HERALD_VARIABLES = { ...GATEWAY_VARIABLES, ...DELIVERY_VARIABLES } as const;

export type HeraldVariables = typeof HERALD_VARIABLES;

/** The table in documentation order: the gateway's first, then the worker's. */
export const HERALD_VARIABLE_LIST: readonly Variable<unknown>[] = Object.freeze(Object.values(HERALD_VARIABLES));

export function variablesReadBy(process: HeraldProcess): readonly Variable<unknown>[] {
  return HERALD_VARIABLE_LIST.filter((variable) => variable.readBy.includes(process));
}
