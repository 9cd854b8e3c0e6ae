import type { BaseResource, LocalizedString, Reference } from '@herald/model';

/** The platform's State types; quote request workflows use `QuoteRequestState` (§3.1). */
export const STATE_TYPES = [
  'OrderState',
  'RecurringOrderState',
  'LineItemState',
  'ProductState',
  'ReviewState',
  'PaymentState',
  'QuoteRequestState',
  'StagedQuoteState',
  'QuoteState',
] as const;
export type StateType = (typeof STATE_TYPES)[number];

export const STATE_ROLES = ['ReviewIncludedInStatistics', 'Return'] as const;
export type StateRole = (typeof STATE_ROLES)[number];

/** The reference's StateRoleEnum: each role "only applies for" one State type. */
export const ROLE_STATE_TYPE: Readonly<Record<StateRole, StateType>> = {
  ReviewIncludedInStatistics: 'ReviewState',
  Return: 'LineItemState',
};

/**
 * A State of a custom workflow (`/{projectKey}/states`). `transitions` lists the States this one
 * may move to; when it is absent or empty, any State of the same type may follow (§3.1 "if it
 * defines none, no validation occurs").
 */
export interface State extends BaseResource {
  key: string;
  type: StateType;
  name?: LocalizedString;
  description?: LocalizedString;
  initial: boolean;
  builtIn: boolean;
  roles: StateRole[];
  transitions?: Array<Reference<'state'>>;
}

/** Whether `state` restricts its successors (§3.1): only when it lists at least one. */
export function restrictsTransitions(state: State): state is State & { transitions: Array<Reference<'state'>> } {
  return state.transitions !== undefined && state.transitions.length > 0;
}
