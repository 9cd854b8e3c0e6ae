import { invalidInput, invalidOperation, type MessagePayload } from '@herald/model';
import type { ActionHandler } from '../shared/update-actions.js';
import { restrictsTransitions, type State } from '../states/state.js';
import { quoteRequestStateReference } from './draft.js';
import type { QuoteRequest } from './quote-request.js';

/**
 * Why the workflow may not move from `current` (undefined: no State yet) to `target`, following
 * §3.1; undefined when it may. `force` is checked by the caller.
 */
export function transitionRefusal(current: State | undefined, hasState: boolean, target: State): string | undefined {
  if (!hasState) {
    return target.initial ? undefined : `The quote request has no State yet, so the new State must be an initial State; '${target.key}' is not.`;
  }
  // A State that was deleted since cannot restrict anything: like one that defines no transitions.
  if (current === undefined || !restrictsTransitions(current)) return undefined;
  if (current.transitions.some((reference) => reference.id === target.id)) return undefined;
  return `The State '${current.key}' does not allow a transition to '${target.key}'.`;
}

/** §4.1 `transitionState` {state, force}: moves the custom workflow State (§3.1), not quoteRequestState. */
export const transitionState: ActionHandler<QuoteRequest> = async (quoteRequest, action, { reader }): Promise<MessagePayload[]> => {
  const force = action.force ?? false;
  if (typeof force !== 'boolean') throw invalidInput("'force' must be a boolean.", { field: 'force' });
  if (action.state === undefined || action.state === null) throw invalidInput("'state' is required.", { field: 'state' });
  const target = await quoteRequestStateReference(reader.get, action.state, 'state');
  if (!force) {
    const current = quoteRequest.state === undefined ? undefined : await reader.get<State>('state', { id: quoteRequest.state.id });
    const refusal = transitionRefusal(current, quoteRequest.state !== undefined, target);
    if (refusal !== undefined) throw invalidOperation(`${refusal} Use "force": true to override.`);
  }
  const oldState = quoteRequest.state;
  quoteRequest.state = { typeId: 'state', id: target.id };
  return [{ type: 'QuoteRequestStateTransition', state: quoteRequest.state, ...(oldState === undefined ? {} : { oldState }), force }];
};
