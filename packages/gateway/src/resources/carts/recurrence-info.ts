import { requiredField, type Reference } from '@herald/model';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import { identifierLocator, loadReferenced } from '../shared/references.js';
import { asDraft } from '../shared/validation.js';
import type { Cart, CustomLineItem, LineItem } from './cart.js';
import { oneOf } from './draft.js';
import { findItem } from './line-items.js';

/*
 * CartSetLineItemRecurrenceInfoAction / CartSetCustomLineItemRecurrenceInfoAction: an item's
 * (Custom)LineItemRecurrenceInfo (types/recurring-order/). Herald has no Recurrence Policies
 * resource yet, so a policy is looked up like any reference and, as none exists, answered
 * ReferencedResourceNotFound; removing the info (no `recurrenceInfo`) always works.
 */

export const RECURRENCE_POLICY_TYPE_ID = 'recurrence-policy';
const PRICE_SELECTION_MODES = ['Fixed', 'Dynamic'] as const;

/** The reference's LineItemRecurrenceInfo (and CustomLineItemRecurrenceInfo). */
export interface RecurrenceInfo {
  recurrencePolicy: Reference<'recurrence-policy'>;
  priceSelectionMode: (typeof PRICE_SELECTION_MODES)[number];
}

async function recurrenceInfo(value: unknown, load: Parameters<typeof loadReferenced>[0]): Promise<RecurrenceInfo> {
  const draft = asDraft(value, "'recurrenceInfo' LineItemRecurrenceInfoDraft");
  if (draft.recurrencePolicy === undefined || draft.recurrencePolicy === null) throw requiredField('recurrenceInfo.recurrencePolicy');
  if (draft.priceSelectionMode === undefined || draft.priceSelectionMode === null) throw requiredField('recurrenceInfo.priceSelectionMode');
  const priceSelectionMode = oneOf(PRICE_SELECTION_MODES, draft.priceSelectionMode, 'recurrenceInfo.priceSelectionMode', 'Fixed');
  const locator = identifierLocator(draft.recurrencePolicy, 'recurrenceInfo.recurrencePolicy', RECURRENCE_POLICY_TYPE_ID);
  const policy = await loadReferenced(load, RECURRENCE_POLICY_TYPE_ID, locator);
  return { recurrencePolicy: { typeId: RECURRENCE_POLICY_TYPE_ID, id: policy.id }, priceSelectionMode };
}

function setRecurrenceInfo(list: 'lineItems' | 'customLineItems'): ActionHandler<Cart> {
  const [idField, keyField] = list === 'lineItems' ? ['lineItemId', 'lineItemKey'] : ['customLineItemId', 'customLineItemKey'];
  return async (cart, action, { reader }) => {
    const item: LineItem | CustomLineItem = findItem<LineItem | CustomLineItem>(cart[list], action, idField, keyField);
    if (action.recurrenceInfo === undefined || action.recurrenceInfo === null) delete item.recurrenceInfo;
    else item.recurrenceInfo = await recurrenceInfo(action.recurrenceInfo, reader.get);
  };
}

/** API Clients only: MyCartUpdateAction has neither action. */
export const recurrenceInfoActions: ActionHandlers<Cart> = {
  setLineItemRecurrenceInfo: setRecurrenceInfo('lineItems'),
  setCustomLineItemRecurrenceInfo: setRecurrenceInfo('customLineItems'),
};
