import { invalidInput, invalidOperation, requiredField, type MessagePayload, type Reference } from '@herald/model';
import { transitionRefusal } from '../quote-requests/transition.js';
import { identifierLocator, loadReferenced, type Load } from '../shared/references.js';
import type { ActionHandler } from '../shared/update-actions.js';
import type { State, StateType } from '../states/state.js';

/** A document with a custom workflow State (reference: `state` of StagedQuote, Quote, Order). */
interface WithWorkflow {
  state?: Reference<'state'>;
}

/** A State given in a draft or action must be of the resource's State type (reference StateType). */
export async function workflowState(load: Load, value: unknown, field: string, type: StateType): Promise<State> {
  const state = await loadReferenced<State>(load, 'state', identifierLocator(value, field, 'state'));
  if (state.type !== type) {
    throw invalidInput(`The State '${state.key}' is a ${state.type}; this resource uses States of type ${type}.`, { field });
  }
  return state;
}

/**
 * The reference's `transitionState {state, force}` of staged quotes, quotes and orders: the same
 * rules as the quote request's (§3.1, quote-requests/transition.ts), with the resource's State
 * type and `<Resource>StateTransition` message {state, oldState?, force}.
 */
export function transitionStateAction<D extends WithWorkflow>(type: StateType, messageType: string): ActionHandler<D> {
  return async (doc, action, { reader }): Promise<MessagePayload[]> => {
    const force = action.force ?? false;
    if (typeof force !== 'boolean') throw invalidInput("'force' must be a boolean.", { field: 'force' });
    if (action.state === undefined || action.state === null) throw invalidInput("'state' is required.", { field: 'state' });
    const target = await workflowState(reader.get, action.state, 'state', type);
    if (!force) {
      const current = doc.state === undefined ? undefined : await reader.get<State>('state', { id: doc.state.id });
      const refusal = transitionRefusal(current, doc.state !== undefined, target);
      if (refusal !== undefined) throw invalidOperation(`${refusal} Use "force": true to override.`);
    }
    const oldState = doc.state;
    doc.state = { typeId: 'state', id: target.id };
    return [{ type: messageType, state: doc.state, ...(oldState === undefined ? {} : { oldState }), force }];
  };
}

/** A draft's `<source>Version`: a positive integer, required (the reference's `format: int64`). */
export function sourceVersion(value: unknown, field: string): number {
  if (value === undefined || value === null) throw requiredField(field);
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw invalidInput(`'${field}' must be a positive integer.`, { field, invalidValue: value });
  }
  return value;
}

/** A draft's optional boolean flag such as `quoteRequestStateToAccepted` (default false). */
export function optionalFlag(value: unknown, field: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw invalidInput(`'${field}' must be a boolean.`, { field, invalidValue: value });
  return value;
}
