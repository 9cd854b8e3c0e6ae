import {
  EVENT_TYPES,
  invalidInput,
  isEventResourceTypeId,
  isKnownEventType,
  isKnownMessageType,
  isResourceTypeId,
  MESSAGE_TYPES,
  type ChangeSubscription,
  type EventSubscription,
  type MessageSubscription,
} from '@herald/model';

/** A MessageSubscription/ChangeSubscription list may not be absurdly long. */
const MAX_ENTRIES = 100;

function entries(value: unknown, field: string): Array<Record<string, unknown>> {
  if (!Array.isArray(value) || value.length > MAX_ENTRIES) {
    throw invalidInput(`'${field}' must be an array of at most ${MAX_ENTRIES} entries.`, { field });
  }
  return value.map((entry, index) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw invalidInput(`'${field}[${index}]' must be an object with a resourceTypeId.`, { field });
    }
    return entry as Record<string, unknown>;
  });
}

function resourceTypeId(entry: Record<string, unknown>, field: string): string {
  const typeId = entry.resourceTypeId;
  if (!isResourceTypeId(typeId)) {
    throw invalidInput(`'${field}.resourceTypeId' ${JSON.stringify(typeId)} is not a resource type id of §2.4.`, {
      field: `${field}.resourceTypeId`,
      invalidValue: typeId,
    });
  }
  return typeId;
}

/** §2.4 MessageSubscription: `types` must be valid message types of the resource; empty = all. */
export function validateMessageSubscriptions(value: unknown): MessageSubscription[] {
  if (value === undefined || value === null) return [];
  return entries(value, 'messages').map((entry, index) => {
    const field = `messages[${index}]`;
    const typeId = resourceTypeId(entry, field);
    if (entry.types === undefined || entry.types === null) return { resourceTypeId: typeId };
    if (!Array.isArray(entry.types) || entry.types.length > 200) {
      throw invalidInput(`'${field}.types' must be an array of message types.`, { field: `${field}.types` });
    }
    for (const type of entry.types) {
      if (typeof type !== 'string' || !isKnownMessageType(typeId, type)) {
        const known = MESSAGE_TYPES[typeId] ?? [];
        throw invalidInput(
          `'${field}.types' contains ${JSON.stringify(type)}, which is not a message type of '${typeId}'` +
            (known.length > 0 ? ` (known: ${known.join(', ')}).` : ' (Herald knows no message types for it).'),
          { field: `${field}.types`, invalidValue: type },
        );
      }
    }
    return { resourceTypeId: typeId, types: entry.types as string[] };
  });
}

/** §2.4 ChangeSubscription: one of the listed resource type ids. */
export function validateChangeSubscriptions(value: unknown): ChangeSubscription[] {
  if (value === undefined || value === null) return [];
  return entries(value, 'changes').map((entry, index) => ({ resourceTypeId: resourceTypeId(entry, `changes[${index}]`) }));
}

/**
 * EventSubscription (beta; the spec is silent, so the reference types): `resourceTypeId` one of
 * EventSubscriptionResourceTypeId, `types` valid EventTypes of it; empty or absent = all events.
 * Herald emits no events (it has neither Checkout nor the Import API): accepted, delivering nothing.
 */
export function validateEventSubscriptions(value: unknown): EventSubscription[] {
  if (value === undefined || value === null) return [];
  return entries(value, 'events').map((entry, index) => {
    const field = `events[${index}]`;
    const typeId = entry.resourceTypeId;
    if (!isEventResourceTypeId(typeId)) {
      throw invalidInput(`'${field}.resourceTypeId' ${JSON.stringify(typeId ?? null)} is not an event resource type (${[...EVENT_TYPES.keys()].join(', ')}).`, {
        field: `${field}.resourceTypeId`,
        invalidValue: typeId,
      });
    }
    if (entry.types === undefined || entry.types === null) return { resourceTypeId: typeId };
    const known = EVENT_TYPES.get(typeId) ?? [];
    if (!Array.isArray(entry.types) || entry.types.length > MAX_ENTRIES) {
      throw invalidInput(`'${field}.types' must be an array of event types.`, { field: `${field}.types` });
    }
    for (const type of entry.types) {
      if (!isKnownEventType(typeId, type)) {
        throw invalidInput(`'${field}.types' contains ${JSON.stringify(type)}, which is not an event type of '${typeId}' (known: ${known.join(', ')}).`, {
          field: `${field}.types`,
          invalidValue: type,
        });
      }
    }
    return { resourceTypeId: typeId, types: entry.types as string[] };
  });
}

/**
 * §2.4 "Either `messages` or `changes` must be set", and the reference's SubscriptionDraft adds
 * `events`: one of the three, also after setMessages/setChanges/setEvents.
 */
export function requireSomethingSubscribed(subscription: {
  messages: readonly unknown[];
  changes: readonly unknown[];
  events?: readonly unknown[] | undefined;
}): void {
  if (subscription.messages.length === 0 && subscription.changes.length === 0 && (subscription.events ?? []).length === 0) {
    throw invalidInput("Either 'messages', 'changes' or 'events' must be set.", { field: 'messages' });
  }
}
