import { invalidOperation, type Clock, type MessagePayload } from '@herald/model';
import type { DocumentStore } from '@herald/store';
import { workflowState } from '../quotes/workflow.js';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import { restrictsTransitions, type State } from '../states/state.js';
import { optionalDateTime } from '../staged-quotes/actions.js';
import type { ItemState, Order, OrderCustomLineItem, OrderLineItem } from './order.js';
import { asList, asObject, namedItem, wholeNumber } from './values.js';

/*
 * The states of an order's items (reference ItemState, State type LineItemState): a new order's
 * items start in the project's initial LineItemState, `transition…ItemState` moves units from one
 * State to another, `import…ItemState` replaces the whole list.
 */

type Kind = 'lineItem' | 'customLineItem';
const LIST: Record<Kind, 'lineItems' | 'customLineItems'> = { lineItem: 'lineItems', customLineItem: 'customLineItems' };
const MESSAGE: Record<Kind, string> = { lineItem: 'LineItemStateTransition', customLineItem: 'CustomLineItemStateTransition' };

const stateRef = (state: State): ItemState['state'] => ({ typeId: 'state', id: state.id });

/** Moves `quantity` units from `from` to `to` (the entry of `from` disappears when it is emptied). */
function moveUnits(states: ItemState[], from: State, to: State, quantity: number): ItemState[] {
  const source = states.find((entry) => entry.state.id === from.id);
  if (source === undefined || source.quantity < quantity) {
    throw invalidOperation(`The item has ${source?.quantity ?? 0} units in the State '${from.key}'; ${quantity} cannot transition from it.`);
  }
  const moved = states
    .map((entry) => (entry.state.id === from.id ? { ...entry, quantity: entry.quantity - quantity } : entry))
    .filter((entry) => entry.quantity > 0);
  const target = moved.find((entry) => entry.state.id === to.id);
  if (target === undefined) return [...moved, { quantity, state: stateRef(to) }];
  target.quantity += quantity;
  return moved;
}

/** Reference Order{Transition,}…ItemStateAction: the `fromState`'s transitions (if it lists any) must allow `toState`. */
function transitionItemState(kind: Kind, clock: Clock): ActionHandler<Order> {
  return async (order, action, { reader }): Promise<MessagePayload[]> => {
    const item: OrderLineItem | OrderCustomLineItem = namedItem<OrderLineItem | OrderCustomLineItem>(order[LIST[kind]], action, kind);
    const quantity = wholeNumber(action.quantity, 'quantity', 1);
    const fromState = await workflowState(reader.get, action.fromState, 'fromState', 'LineItemState');
    const toState = await workflowState(reader.get, action.toState, 'toState', 'LineItemState');
    if (restrictsTransitions(fromState) && !fromState.transitions.some((reference) => reference.id === toState.id)) {
      throw invalidOperation(`The State '${fromState.key}' does not allow a transition to '${toState.key}'.`);
    }
    const transitionDate = optionalDateTime(action.actualTransitionDate, 'actualTransitionDate') ?? clock.now().toISOString();
    item.state = moveUnits(item.state, fromState, toState, quantity);
    return [
      {
        type: MESSAGE[kind],
        [`${kind}Id`]: item.id,
        ...(item.key === undefined ? {} : { [`${kind}Key`]: item.key }),
        transitionDate,
        quantity,
        fromState: stateRef(fromState),
        toState: stateRef(toState),
      },
    ];
  };
}

/** Reference Order{Import,}…ItemStateAction {state: ItemState[]}: replaces the item's states (no message in the reference). */
function importItemState(kind: Kind): ActionHandler<Order> {
  return async (order, action, { reader }): Promise<void> => {
    const item: OrderLineItem | OrderCustomLineItem = namedItem<OrderLineItem | OrderCustomLineItem>(order[LIST[kind]], action, kind);
    const states: ItemState[] = [];
    for (const [index, entry] of asList(action.state, 'state', true).entries()) {
      const draft = asObject(entry, `state[${index}]`);
      const state = await workflowState(reader.get, draft.state, `state[${index}].state`, 'LineItemState');
      states.push({ quantity: wholeNumber(draft.quantity, `state[${index}].quantity`), state: stateRef(state) });
    }
    item.state = states;
  };
}

export function itemStateActions(clock: Clock): ActionHandlers<Order> {
  return {
    transitionLineItemState: transitionItemState('lineItem', clock),
    transitionCustomLineItemState: transitionItemState('customLineItem', clock),
    importLineItemState: importItemState('lineItem'),
    importCustomLineItemState: importItemState('customLineItem'),
  };
}

/**
 * The reference: a new order's items are in the initial LineItemState (the platform's built-in
 * `Initial`). Herald uses the project's initial LineItemState, `Initial` by key if several are;
 * with none, items start without states (importLineItemState can set them).
 */
export async function initialLineItemState(documents: DocumentStore, projectKey: string): Promise<State | undefined> {
  const found = await documents.query<State>(projectKey, 'state', { where: ['type = "LineItemState" and initial = true'], sort: ['createdAt asc'], limit: 20 });
  return found.results.find((state) => state.key === 'Initial') ?? found.results[0];
}

/** A new order's items with their whole quantity in `initial`. */
export function withItemStates<O extends Pick<Order, 'lineItems' | 'customLineItems'>>(order: O, initial: State | undefined): O {
  if (initial === undefined) return order;
  const inInitial = <T extends { quantity: number }>(item: T): T & { state: ItemState[] } => ({
    ...item,
    state: [{ quantity: item.quantity, state: stateRef(initial) }],
  });
  return { ...order, lineItems: order.lineItems.map(inInitial), customLineItems: order.customLineItems.map(inInitial) };
}
