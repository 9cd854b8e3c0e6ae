import { variablesReadBy } from '@herald/model';

/** A variable as documented: name, meaning and default (`undefined` means "unset"). */
export interface VariableSpec {
  name: string;
  description: string;
  default?: string;
}

/**
 * What `herald serve` reads (its in-process delivery worker's settings included), derived from the
 * one configuration table of @herald/model. `herald-delivery`'s list is WORKER_VARIABLES.
 */
export const VARIABLES: readonly VariableSpec[] = Object.freeze(
  variablesReadBy('herald serve').map((variable) => ({
    name: variable.name,
    description: variable.description,
    ...(variable.shownDefault === undefined ? {} : { default: variable.shownDefault }),
  })),
);
