import { invalidInput, invalidOperation } from '@herald/model';
import type { ServerFields } from '@herald/store';
import type { Order } from '../orders/order.js';
import type { RequestContext } from '../shared/context.js';
import { customFieldActions, customFromDraft } from '../shared/custom-fields.js';
import { identifierLocator, loadReferenced } from '../shared/references.js';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import { asDraft, optionalKey, optionalString } from '../shared/validation.js';
import type { ResourceDefinition } from '../shared/versioned-routes.js';
import { ORDER_EDIT_TYPE_ID, type OrderEdit } from './order-edit.js';
import { resultOf } from './preview.js';
import { stagedAction, stagedActionsFrom } from './staged-actions.js';

/** Reference resources/orders.raml `/edits`: `view_order_edits` and `manage_order_edits`. */
export const ORDER_EDIT_SCOPES = { view: ['view_order_edits'], manage: ['manage_order_edits'] } as const;
const MAX_COMMENT_LENGTH = 4096;

/**
 * OrderEditDraft: `resource` (an existing order) required; `key`, `stagedActions`, `comment`,
 * `custom` optional. "You can only create an Order Edit if the InventoryMode of the Order … is
 * None" (orders.raml). `dryRun` (a preview without persisting) is not supported yet: every answer
 * already carries the preview in `result`, so a dry run is refused with a 400 that says so.
 */
async function orderEditFromDraft(body: unknown, ctx: RequestContext, accepted: ActionHandlers<Order>): Promise<Omit<OrderEdit, ServerFields>> {
  const draft = asDraft(body, 'OrderEditDraft');
  if (draft.resource === undefined || draft.resource === null) throw invalidInput("'resource' is required: the order to edit.", { field: 'resource' });
  if (draft.dryRun !== undefined && draft.dryRun !== null && typeof draft.dryRun !== 'boolean') {
    throw invalidInput("'dryRun' must be a boolean.", { field: 'dryRun', invalidValue: draft.dryRun });
  }
  if (draft.dryRun === true) throw invalidInput("'dryRun' is not supported by Herald: create the edit and read its 'result' preview.", { field: 'dryRun' });
  const stagedActions = stagedActionsFrom(draft.stagedActions, 'stagedActions', accepted);
  const order = await loadReferenced<Order>(ctx.load, 'order', identifierLocator(draft.resource, 'resource', 'order'));
  if (order.inventoryMode !== undefined && order.inventoryMode !== 'None') {
    throw invalidOperation(`An order edit needs an order with inventoryMode None; the order has ${order.inventoryMode}.`);
  }
  const edit: Omit<OrderEdit, ServerFields> = { resource: { typeId: 'order', id: order.id }, stagedActions, result: { type: 'NotProcessed' } };
  const key = optionalKey(draft.key);
  if (key !== undefined) edit.key = key;
  const comment = optionalString(draft.comment, 'comment', MAX_COMMENT_LENGTH);
  if (comment !== undefined) edit.comment = comment;
  const custom = await customFromDraft(draft.custom, ORDER_EDIT_TYPE_ID, ctx);
  if (custom !== undefined) edit.custom = custom;
  return edit;
}

/** "The stagedActions field cannot be updated if the Order Edit result is OrderEdit Applied." */
function assertNotApplied(edit: OrderEdit): void {
  if (edit.result.type === 'Applied') throw invalidOperation('The stagedActions of an applied order edit cannot be changed.');
}

/** Reference OrderEditUpdateAction: no OrderEdit messages exist in the reference. */
function orderEditActions(accepted: ActionHandlers<Order>): ActionHandlers<OrderEdit> {
  const addStagedAction: ActionHandler<OrderEdit> = (edit, action) => {
    assertNotApplied(edit);
    edit.stagedActions.push(stagedAction(action.stagedAction, 'stagedAction', accepted));
  };
  const setStagedActions: ActionHandler<OrderEdit> = (edit, action) => {
    assertNotApplied(edit);
    if (action.stagedActions === undefined || action.stagedActions === null) throw invalidInput("'stagedActions' is required.", { field: 'stagedActions' });
    edit.stagedActions = stagedActionsFrom(action.stagedActions, 'stagedActions', accepted);
  };
  const setComment: ActionHandler<OrderEdit> = (edit, action) => {
    const comment = optionalString(action.comment, 'comment', MAX_COMMENT_LENGTH);
    if (comment === undefined) delete edit.comment;
    else edit.comment = comment;
  };
  const setKey: ActionHandler<OrderEdit> = (edit, action) => {
    const key = optionalKey(action.key);
    if (key === undefined) delete edit.key;
    else edit.key = key;
  };
  return { addStagedAction, setStagedActions, setComment, setKey, ...customFieldActions<OrderEdit>(ORDER_EDIT_TYPE_ID, { messages: false }) };
}

/**
 * `/{projectKey}/order-edits` (the task's name) and `/{projectKey}/orders/edits` (the reference's
 * path): one definition per path over the same documents. Every answer of an unapplied edit
 * carries the preview of its staged actions on the order's current version.
 */
export function orderEditDefinition(path: 'order-edits' | 'orders/edits', accepted: ActionHandlers<Order>): ResourceDefinition<OrderEdit> {
  return {
    typeId: ORDER_EDIT_TYPE_ID,
    path,
    scopes: ORDER_EDIT_SCOPES,
    fromDraft: (body, ctx) => orderEditFromDraft(body, ctx, accepted),
    actions: orderEditActions(accepted),
    present: async (edit, ctx) => ({ ...edit, result: await resultOf(edit, accepted, ctx) }),
  };
}
