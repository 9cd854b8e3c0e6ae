import type { BaseResource, CustomFields, MessagePayload } from '@herald/model';
import { customFieldActions } from './custom-fields.js';
import type { ActionHandler, ActionHandlers, UpdateAction } from './update-actions.js';

/*
 * Custom fields on a part of a resource: the reference's Set<Part>CustomType and
 * Set<Part>CustomField actions (an order's deliveries, parcels, return items, items, addresses and
 * shipping; a cart's addresses and shipping). The shared setCustomType / setCustomField handlers
 * (custom-fields.ts) run on the part the action names, as asset-actions.ts does for Assets, so a
 * part's Type and fields are validated exactly as a resource's own.
 */

/** The custom fields of the part an action names, and the part's id for its messages. */
export interface LocatedPart {
  id?: string;
  read(): CustomFields | undefined;
  write(custom: CustomFields | undefined): void;
}

/** A part that keeps its custom fields as `custom` (Address, Delivery, Parcel, ReturnItem, LineItem, …). */
export function partHolding(part: { id?: string; custom?: CustomFields }): LocatedPart {
  return {
    ...(part.id === undefined ? {} : { id: part.id }),
    read: () => part.custom,
    write: (custom) => {
      if (custom === undefined) delete part.custom;
      else part.custom = custom;
    },
  };
}

/**
 * The official messages about a part's custom fields, named `<prefix>Custom{Type,Field}…` and
 * carrying the part's id as `idField` (e.g. DeliveryCustomTypeSet {deliveryId, customFields, previousTypeId?}).
 */
export interface PartMessages {
  prefix: string;
  idField: string;
}

export interface CustomizablePart<D> {
  /** The part as the action names spell it: `Delivery` for setDeliveryCustomType / setDeliveryCustomField. */
  name: string;
  /** The resource type id its Types must list (types/type/ResourceTypeId.raml: `order-delivery`, `address`, …). */
  resourceTypeId: string;
  /** The part the action names; throws a 400 naming the locator field when there is none. */
  locate(doc: D, action: UpdateAction): LocatedPart;
  /** Absent where the reference has no messages for the part (most parts have none). */
  messages?: PartMessages;
}

/** A part as the shared custom-field handlers see it: they read and write only `custom`. */
type CustomizableView = BaseResource & { custom?: CustomFields };

const SHARED_NAMES = ['setCustomType', 'setCustomField'] as const;
type SharedName = (typeof SHARED_NAMES)[number];

/** The part's two actions: set<Name>CustomType and set<Name>CustomField. */
export function partCustomFieldActions<D>(part: CustomizablePart<D>): ActionHandlers<D> {
  const shared = customFieldActions<CustomizableView>(part.resourceTypeId, { messages: part.messages !== undefined });
  const actionName = (sharedName: SharedName): string => sharedName.replace('set', `set${part.name}`);
  return Object.fromEntries(SHARED_NAMES.map((sharedName) => [actionName(sharedName), onPart(sharedHandler(shared, sharedName), sharedName, part)]));
}

function sharedHandler(shared: ActionHandlers<CustomizableView>, name: SharedName): ActionHandler<CustomizableView> {
  const handler = shared[name];
  if (handler === undefined) throw new Error(`custom-fields.ts has no '${name}' handler.`);
  return handler;
}

function onPart<D>(handler: ActionHandler<CustomizableView>, sharedName: SharedName, part: CustomizablePart<D>): ActionHandler<D> {
  return async (doc, action, scope): Promise<MessagePayload[]> => {
    const located = part.locate(doc, action);
    const current = located.read();
    const view = (current === undefined ? {} : { custom: current }) as CustomizableView;
    const produced = (await handler(view, { ...action, action: sharedName }, scope)) ?? [];
    located.write(view.custom);
    const { messages } = part;
    return messages === undefined ? [] : produced.map((message) => officialMessage(message, messages, located.id));
  };
}

const GENERIC_SUFFIX = /Custom(?:Type|Field)[A-Z][a-z]+$/;

/**
 * The shared handlers name their messages after the resource type and carry `oldTypeId` /
 * `oldValue`; the reference's part messages (types/message/DeliveryCustom*.raml) carry
 * `previousTypeId` / `previousValue` and the part's id.
 */
function officialMessage(generic: MessagePayload, { prefix, idField }: PartMessages, id: string | undefined): MessagePayload {
  const { type, oldTypeId, oldValue, ...fields } = generic;
  const suffix = GENERIC_SUFFIX.exec(type)?.[0] ?? type;
  return {
    type: `${prefix}${suffix}`,
    ...fields,
    ...(oldTypeId === undefined ? {} : { previousTypeId: oldTypeId }),
    ...(oldValue === undefined ? {} : { previousValue: oldValue }),
    [idField]: id,
  };
}
