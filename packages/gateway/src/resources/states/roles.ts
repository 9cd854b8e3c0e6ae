import { invalidInput, invalidOperation } from '@herald/model';
import type { ActionHandlers } from '../shared/update-actions.js';
import { stringArray } from '../shared/validation.js';
import { ROLE_STATE_TYPE, STATE_ROLES, type State, type StateRole } from './state.js';

/** A list of roles, each once (absent: none). */
export function roles(value: unknown): StateRole[] {
  if (value === undefined || value === null) return [];
  const given = stringArray(value, 'roles');
  for (const role of given) {
    if (!(STATE_ROLES as readonly string[]).includes(role)) {
      throw invalidInput(`'roles' must contain only ${STATE_ROLES.join(', ')}.`, { field: 'roles', invalidValue: role });
    }
  }
  return [...new Set(given)] as StateRole[];
}

/** The reference (setRoles, addRoles): a role not applicable to the State's type is an InvalidOperation. */
function assertApplicable(state: State, given: readonly StateRole[]): void {
  const misplaced = given.find((role) => ROLE_STATE_TYPE[role] !== state.type);
  if (misplaced !== undefined) {
    throw invalidOperation(`The role ${misplaced} applies to States of type ${ROLE_STATE_TYPE[misplaced]} only; '${state.key}' is a ${state.type}.`);
  }
}

/** The reference's setRoles, addRoles and removeRoles. */
export const roleActions: ActionHandlers<State> = {
  setRoles(state, action) {
    const next = roles(action.roles);
    assertApplicable(state, next);
    state.roles = next;
  },
  /** "If the specified roles are already present, an InvalidOperation error is returned." */
  addRoles(state, action) {
    const added = roles(action.roles ?? []);
    assertApplicable(state, added);
    const present = added.filter((role) => state.roles.includes(role));
    if (present.length > 0) throw invalidOperation(`The State '${state.key}' has the role ${present.join(', ')} already.`);
    state.roles = [...state.roles, ...added];
  },
  /** "If none of the specified roles are already present, an InvalidOperation error is returned." */
  removeRoles(state, action) {
    const removed = roles(action.roles ?? []);
    if (!removed.some((role) => state.roles.includes(role))) {
      throw invalidOperation(`The State '${state.key}' has none of the roles ${removed.join(', ')}.`);
    }
    state.roles = state.roles.filter((role) => !removed.includes(role));
  },
};
