import { invalidOperation, resourceNotFound, type Clock } from '@herald/model';
import type { DocumentStore } from '@herald/store';
import { expectedVersion } from '../../http/version.js';
import type { Order } from '../orders/order.js';
import type { RequestContext } from '../shared/context.js';
import type { ActionHandlers } from '../shared/update-actions.js';
import { asDraft } from '../shared/validation.js';
import { notFoundMessage } from '../shared/versioned-routes.js';
import { ORDER_EDIT_TYPE_ID, type OrderEdit, type OrderEditAppliedResult } from './order-edit.js';
import { excerptOf, runStagedActions } from './preview.js';

/** Reference OrderEditApply: both versions are required; a mismatch of either is a 409. */
function applyBody(body: unknown): { editVersion: number; resourceVersion: number } {
  const draft = asDraft(body, 'OrderEditApply');
  return { editVersion: expectedVersion(draft.editVersion), resourceVersion: expectedVersion(draft.resourceVersion) };
}

/**
 * `POST /order-edits/{id}/apply` (reference `/orders/edits/{id}/apply`): in ONE transaction the
 * edit is locked at `editVersion`, the order at `resourceVersion` gets the staged actions (their
 * messages and OrderEditApplied) but no change notification (§2.4: "Changes to orders made
 * through order edits do not trigger a change notification; to be notified, subscribe to the
 * OrderEditApplied message"), and the edit stores its OrderEditApplied result (its own
 * ResourceUpdated). A staged action that fails now fails the request with its errors; nothing is
 * written. Answers the applied edit.
 */
export async function applyOrderEdit(
  documents: DocumentStore,
  actions: ActionHandlers<Order>,
  clock: Clock,
  ctx: RequestContext,
  id: string,
  body: unknown,
): Promise<OrderEdit> {
  // An unknown edit is a 404 whatever the body (before the body's 400s, as for every update).
  if ((await ctx.load<OrderEdit>(ORDER_EDIT_TYPE_ID, { id })) === undefined) throw resourceNotFound(notFoundMessage(ORDER_EDIT_TYPE_ID, { id }));
  const { editVersion, resourceVersion } = applyBody(body);
  return documents.update<OrderEdit>(ctx.write, ORDER_EDIT_TYPE_ID, { id }, editVersion, async (edit, reader) => {
    if (edit.result.type === 'Applied') throw invalidOperation('The order edit has been applied already.');
    const appliedAt = clock.now().toISOString();
    let result: OrderEditAppliedResult | undefined;
    await documents.within(reader.tx).update<Order>(
      ctx.write,
      'order',
      { id: edit.resource.id },
      resourceVersion,
      async (order, orderReader) => {
        const { order: edited, messages } = await runStagedActions(actions, order, edit.stagedActions, ctx, orderReader);
        result = { type: 'Applied', appliedAt, excerptBeforeEdit: excerptOf(order, order.version), excerptAfterEdit: excerptOf(edited, order.version + 1) };
        const applied: OrderEdit = { ...edit, result, version: edit.version + 1, lastModifiedAt: appliedAt };
        return { doc: edited, messages: [...messages, { type: 'OrderEditApplied', edit: applied, result }] };
      },
      { changeNotification: false },
    );
    if (result === undefined) throw new Error('order edit applied without a result');
    edit.result = result;
    return { doc: edit };
  });
}
