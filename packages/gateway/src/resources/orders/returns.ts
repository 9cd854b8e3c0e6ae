import { randomUUID } from 'node:crypto';
import { invalidInput, invalidOperation, type Clock, type MessagePayload } from '@herald/model';
import { customFromDraft } from '../shared/custom-fields.js';
import type { ActionHandler, ActionHandlers, ActionScope } from '../shared/update-actions.js';
import { optionalString, type Draft } from '../shared/validation.js';
import { optionalDateTime } from '../staged-quotes/actions.js';
import { oneOfStates } from './fields.js';
import { RETURN_PAYMENT_STATES, RETURN_SHIPMENT_STATES, type Order, type ReturnInfo, type ReturnItem } from './order.js';
import { asList, asObject, optionalUniqueKey, wholeNumber } from './values.js';

/** Custom fields of return items use Types for this resource type id (reference ResourceTypeId). */
export const RETURN_ITEM_TYPE_ID = 'order-return-item';

const returnItemsOf = (order: Order): ReturnItem[] => order.returnInfo.flatMap((info) => info.items);

/** The item a ReturnItemDraft returns: exactly one of `lineItemId` and `customLineItemId`, of this order. */
function returnedItem(
  order: Order,
  draft: Draft,
  field: string,
): { type: 'LineItemReturnItem'; lineItemId: string } | { type: 'CustomLineItemReturnItem'; customLineItemId: string } {
  const { lineItemId, customLineItemId } = draft;
  if ((typeof lineItemId === 'string') === (typeof customLineItemId === 'string')) {
    throw invalidInput(`'${field}' must name exactly one of 'lineItemId' and 'customLineItemId'.`, { field });
  }
  if (typeof lineItemId === 'string') {
    if (!order.lineItems.some((item) => item.id === lineItemId))
      throw invalidInput(`The order has no line item with id '${lineItemId}'.`, { field: `${field}.lineItemId` });
    return { type: 'LineItemReturnItem', lineItemId };
  }
  const id = customLineItemId as string;
  if (!order.customLineItems.some((item) => item.id === id))
    throw invalidInput(`The order has no custom line item with id '${id}'.`, { field: `${field}.customLineItemId` });
  return { type: 'CustomLineItemReturnItem', customLineItemId: id };
}

/**
 * Reference ReturnItemDraft → ReturnItem. The payment state follows the shipment state it starts
 * in (ReturnPaymentState: `NonRefundable` for `Advised` items, `Initial` for `Returned` ones).
 */
async function returnItem(order: Order, value: unknown, field: string, taken: ReturnItem[], now: string, scope: ActionScope): Promise<ReturnItem> {
  const draft = asObject(value, field);
  const shipmentState = oneOfStates(RETURN_SHIPMENT_STATES, draft.shipmentState, `${field}.shipmentState`);
  const item: ReturnItem = {
    id: randomUUID(),
    quantity: wholeNumber(draft.quantity, `${field}.quantity`, 1),
    ...returnedItem(order, draft, field),
    shipmentState,
    paymentState: shipmentState === 'Advised' ? 'NonRefundable' : 'Initial',
    createdAt: now,
    lastModifiedAt: now,
  };
  const key = optionalUniqueKey(draft.key, `${field}.key`, taken);
  if (key !== undefined) item.key = key;
  const comment = optionalString(draft.comment, `${field}.comment`);
  if (comment !== undefined) item.comment = comment;
  const custom = await customFromDraft(draft.custom, RETURN_ITEM_TYPE_ID, scope.ctx);
  if (custom !== undefined) item.custom = custom;
  return item;
}

/** Reference ReturnInfoDraft → ReturnInfo; `returnDate` "defaults to the current date and time" (addReturnInfo). */
async function returnInfo(order: Order, draft: Draft, field: string, taken: ReturnItem[], now: string, scope: ActionScope): Promise<ReturnInfo> {
  const items: ReturnItem[] = [];
  for (const [index, entry] of asList(draft.items, `${field}items`, true).entries()) {
    items.push(await returnItem(order, entry, `${field}items[${index}]`, [...taken, ...items], now, scope));
  }
  const info: ReturnInfo = { items, returnDate: optionalDateTime(draft.returnDate, `${field}returnDate`) ?? now };
  const returnTrackingId = optionalString(draft.returnTrackingId, `${field}returnTrackingId`);
  if (returnTrackingId !== undefined) info.returnTrackingId = returnTrackingId;
  return info;
}

function addReturnInfo(clock: Clock): ActionHandler<Order> {
  return async (order, action, scope): Promise<MessagePayload[]> => {
    const info = await returnInfo(order, action, '', returnItemsOf(order), clock.now().toISOString(), scope);
    order.returnInfo.push(info);
    return [{ type: 'ReturnInfoAdded', returnInfo: info }];
  };
}

/** Reference OrderSetReturnInfoAction {items?: ReturnInfoDraft[]}: replaces every ReturnInfo. */
function setReturnInfo(clock: Clock): ActionHandler<Order> {
  return async (order, action, scope): Promise<MessagePayload[]> => {
    const now = clock.now().toISOString();
    const infos: ReturnInfo[] = [];
    for (const [index, entry] of asList(action.items, 'items').entries()) {
      infos.push(
        await returnInfo(
          order,
          asObject(entry, `items[${index}]`),
          `items[${index}].`,
          infos.flatMap((info) => info.items),
          now,
          scope,
        ),
      );
    }
    order.returnInfo = infos;
    return [{ type: 'ReturnInfoSet', returnInfo: infos }];
  };
}

export function namedReturnItem(order: Order, action: Draft): ReturnItem {
  const { returnItemId: id, returnItemKey: key } = action;
  if (typeof id !== 'string' && typeof key !== 'string') throw invalidInput("Either 'returnItemId' or 'returnItemKey' is required.", { field: 'returnItemId' });
  const item = returnItemsOf(order).find((entry) => (typeof id === 'string' ? entry.id === id : entry.key === key));
  if (item === undefined)
    throw invalidInput(`The order has no return item with ${typeof id === 'string' ? `id '${id}'` : `key '${String(key)}'`}.`, {
      field: typeof id === 'string' ? 'returnItemId' : 'returnItemKey',
    });
  return item;
}

/**
 * Reference OrderSetReturnShipmentStateAction: "can only transition Return Items from the
 * `Returned` state to `BackInStock` or `Unusable`"; message OrderReturnShipmentStateChanged.
 */
function setReturnShipmentState(clock: Clock): ActionHandler<Order> {
  return (order, action): MessagePayload[] => {
    const item = namedReturnItem(order, action);
    const to = oneOfStates(RETURN_SHIPMENT_STATES, action.shipmentState, 'shipmentState');
    if (item.shipmentState !== 'Returned' || (to !== 'BackInStock' && to !== 'Unusable')) {
      throw invalidOperation(`A return item can only move from Returned to BackInStock or Unusable; this one is ${item.shipmentState}.`);
    }
    item.shipmentState = to;
    item.lastModifiedAt = clock.now().toISOString();
    return [{ type: 'OrderReturnShipmentStateChanged', returnItemId: item.id, returnShipmentState: to }];
  };
}

/** Reference OrderSetReturnPaymentStateAction (the reference has no message for it). */
function setReturnPaymentState(clock: Clock): ActionHandler<Order> {
  return (order, action): void => {
    const item = namedReturnItem(order, action);
    item.paymentState = oneOfStates(RETURN_PAYMENT_STATES, action.paymentState, 'paymentState');
    item.lastModifiedAt = clock.now().toISOString();
  };
}

export function returnActions(clock: Clock): ActionHandlers<Order> {
  return {
    addReturnInfo: addReturnInfo(clock),
    setReturnInfo: setReturnInfo(clock),
    setReturnShipmentState: setReturnShipmentState(clock),
    setReturnPaymentState: setReturnPaymentState(clock),
  };
}
