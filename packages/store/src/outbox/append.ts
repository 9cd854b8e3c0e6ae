import { randomUUID } from 'node:crypto';
import type { BaseResource, ChangeDeliveryPayload, Message, MessageDeliveryPayload, MessagePayload } from '@herald/model';
import type { Queryable } from '../database/types.js';
import { userProvidedIdentifiers } from '../documents/identifiers.js';
import type { WriteContext } from '../documents/types.js';

/** Appends a change notification to the outbox (inside the caller's transaction). */
export async function appendChange(
  tx: Queryable,
  projectKey: string,
  typeId: string,
  payload: ChangeDeliveryPayload,
): Promise<void> {
  await tx.query(
    `INSERT INTO outbox (project_key, event_id, kind, resource_type_id, payload) VALUES ($1, $2, 'change', $3, $4)`,
    [projectKey, randomUUID(), typeId, payload],
  );
}

/**
 * Numbers the messages after `lastSequence` (consecutive per resource, §6.2), keeps them for the
 * Messages API when enabled, and appends each to the outbox.
 */
export async function appendMessages(
  tx: Queryable,
  ctx: WriteContext,
  typeId: string,
  doc: BaseResource,
  lastSequence: number,
  payloads: readonly MessagePayload[],
  now: string,
): Promise<Message[]> {
  const messages: Message[] = payloads.map((payload, index) => ({
    id: randomUUID(),
    version: 1,
    sequenceNumber: lastSequence + index + 1,
    resource: { typeId, id: doc.id },
    resourceVersion: doc.version,
    ...userProvidedIdentifiers(doc),
    createdAt: now,
    lastModifiedAt: now,
    ...(ctx.initiator === undefined ? {} : { createdBy: ctx.initiator, lastModifiedBy: ctx.initiator }),
    ...payload,
  }));
  for (const message of messages) {
    if (ctx.storeMessages !== false) {
      await tx.query(
        `INSERT INTO messages (project_key, id, resource_type_id, resource_id, sequence_number, type, created_at, last_modified_at, doc)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8)`,
        [ctx.projectKey, message.id, typeId, doc.id, message.sequenceNumber, message.type, now, message],
      );
    }
    const delivery: MessageDeliveryPayload = { notificationType: 'Message', projectKey: ctx.projectKey, ...message };
    await tx.query(
      `INSERT INTO outbox (project_key, event_id, kind, resource_type_id, message_type, payload)
       VALUES ($1, $2, 'message', $3, $4, $5)`,
      [ctx.projectKey, message.id, typeId, message.type, delivery],
    );
  }
  return messages;
}
