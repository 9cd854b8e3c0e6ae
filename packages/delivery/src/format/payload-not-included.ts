import type { MessageDeliveryPayload } from '@herald/model';

/** The stable `payloadNotIncluded.reason` text (§6.2 leaves the values open). */
export function payloadNotIncludedReason(limitBytes: number): string {
  return `Payload exceeds destination size limit of ${limitBytes} bytes`;
}

/**
 * §6.2: a message too large for its destination is delivered with its common fields only, and
 * `payloadNotIncluded` naming the original `type`; the full message stays fetchable from the
 * Messages API when the project keeps messages. Everything else (the message-specific fields and
 * `type`) is left out.
 */
export function withoutMessagePayload(payload: MessageDeliveryPayload, limitBytes: number): MessageDeliveryPayload {
  const stripped: MessageDeliveryPayload = {
    notificationType: 'Message',
    projectKey: payload.projectKey,
    id: payload.id,
    version: payload.version,
    sequenceNumber: payload.sequenceNumber,
    resource: { typeId: payload.resource.typeId, id: payload.resource.id },
    resourceVersion: payload.resourceVersion,
    createdAt: payload.createdAt,
    lastModifiedAt: payload.lastModifiedAt,
  };
  if (payload.resourceUserProvidedIdentifiers !== undefined) {
    stripped.resourceUserProvidedIdentifiers = payload.resourceUserProvidedIdentifiers;
  }
  if (payload.createdBy !== undefined) stripped.createdBy = payload.createdBy;
  if (payload.lastModifiedBy !== undefined) stripped.lastModifiedBy = payload.lastModifiedBy;
  stripped.payloadNotIncluded = {
    reason: payloadNotIncludedReason(limitBytes),
    payloadType: payload.type ?? payload.payloadNotIncluded?.payloadType ?? 'Unknown',
  };
  return stripped;
}
