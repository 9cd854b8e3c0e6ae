import { invalidInput, invalidOperation, type MessagePayload } from '@herald/model';
import { transitionRefusal } from '../quote-requests/transition.js';
import { identifierLocator, loadReferenced } from '../shared/references.js';
import type { ActionHandler } from '../shared/update-actions.js';
import type { State } from '../states/state.js';
import { forceFlag } from './data-actions.js';
import type { Product } from './product.js';

/**
 * ProductTransitionStateAction {state, force}: the target must be a ProductState; without `force`
 * the workflow's transitions are respected as for any resource (the same rule as quote requests).
 */
export const transitionState: ActionHandler<Product> = async (product, action, { ctx }): Promise<MessagePayload[]> => {
  const force = forceFlag(action.force);
  if (action.state === undefined || action.state === null) throw invalidInput("'state' is required.", { field: 'state' });
  const target = await loadReferenced<State>(ctx.load, 'state', identifierLocator(action.state, 'state', 'state'));
  if (target.type !== 'ProductState') throw invalidInput(`The State '${target.key}' is a ${target.type}, not a ProductState.`, { field: 'state' });
  if (!force) {
    const current = product.state === undefined ? undefined : await ctx.load<State>('state', { id: product.state.id });
    const refusal = transitionRefusal(current, product.state !== undefined, target);
    if (refusal !== undefined) throw invalidOperation(`${refusal.replace('quote request', 'product')} Use "force": true to override.`);
  }
  product.state = { typeId: 'state', id: target.id };
  return [{ type: 'ProductStateTransition', state: product.state, force }];
};
