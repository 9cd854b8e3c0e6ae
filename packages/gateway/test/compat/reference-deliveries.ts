/**
 * What the reference conformance test checks on messages and deliveries (spec §6.2): a message is
 * its Message subtype; a Platform message delivery is a MessageDeliveryPayload and, unless its
 * payload was left out (`payloadNotIncluded`), the Message too; change notifications are their
 * DeliveryPayload subtypes; a CloudEvents delivery is a CloudEventsPayload whose `data` is the
 * Platform payload.
 */
import { checkAgainstReference, checkAgainstReferenceTypes, type CheckOptions } from '@herald/testkit';
import type { Json } from '../carts/commerce.js';
import { ACCEPTED_EXTRA_FIELDS } from './reference-extras.js';

export interface Delivered {
  /** The queue message's body, parsed. */
  readonly document: Json;
}

const options = (label: string, more: CheckOptions = {}): CheckOptions => ({ extraFields: ACCEPTED_EXTRA_FIELDS, label, ...more });
const messagesOf = (found: readonly { message: string }[]) => found.map((violation) => violation.message);

/** The Platform payload inside a delivery: CloudEvents `data`, or the document itself. */
function payloadOf(document: Json): Json {
  return typeof document.specversion === 'string' ? ((document.data ?? {}) as Json) : document;
}

/** `typeId:id:notification:version` for changes, `typeId:id:Message:type:sequenceNumber` for messages. */
export function labelOf(document: Json): string {
  const payload = payloadOf(document);
  const resource = (payload.resource ?? {}) as Json;
  const at = `${String(resource.typeId)}:${String(resource.id)}`;
  if (payload.notificationType !== 'Message') return `${at}:${String(payload.notificationType)}:${String(payload.version)}`;
  const type = payload.type ?? (payload.payloadNotIncluded as Json | undefined)?.payloadType;
  return `${at}:Message:${String(type)}:${String(payload.sequenceNumber)}`;
}

/** A message of the Messages API against its Message subtype (chosen by `type`). */
export function messageViolations(message: Json): string[] {
  return messagesOf(checkAgainstReference('Message', message, options(`Message(${String(message.type)} #${String(message.sequenceNumber)})`)));
}

/** The reference types a Platform payload is an instance of. */
function platformTypes(payload: Json): string[] {
  if (payload.notificationType !== 'Message') return ['DeliveryPayload'];
  return payload.payloadNotIncluded === undefined ? ['MessageDeliveryPayload', 'Message'] : ['MessageDeliveryPayload'];
}

export function deliveryViolations(delivered: Delivered, format: 'Platform' | 'CloudEvents'): string[] {
  const { document } = delivered;
  const label = `${format}[${labelOf(document)}]`;
  if (format === 'Platform') return messagesOf(checkAgainstReferenceTypes(platformTypes(document), document, options(label)));
  const asTypes = { [`${label}.data`]: platformTypes(payloadOf(document)) };
  return messagesOf(checkAgainstReference('CloudEventsPayload', document, options(label, { asTypes })));
}
