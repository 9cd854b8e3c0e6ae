import { randomUUID } from 'node:crypto';
import type { BaseResource, ChangeDeliveryPayload, Message, MessageDeliveryPayload, MessagePayload } from '@herald/model';
import type { Queryable } from '../database/types.js';
import { userProvidedIdentifiers } from '../documents/identifiers.js';
import type { WriteContext } from '../documents/types.js';

/**
 * What one write appends: its messages (numbered after the resource's last sequence number,
 * consecutive per resource, §6.2) and its change notification, ready to be bound as two JSON
 * parameters of `eventInserts`, so that a write costs one statement however many events it has.
 */
export interface WriteEvents {
  messages: Message[];
  /** Rows for the Messages API (`[]` when the project does not keep messages), as JSON. */
  storedJson: string;
  /** Outbox rows, messages first then the change, as JSON. */
  outboxJson: string;
  /** How many elements the two arrays hold (a batch statement tells whose each one is). */
  storedCount: number;
  outboxCount: number;
}

export function prepareEvents(
  ctx: WriteContext,
  typeId: string,
  doc: BaseResource,
  lastSequence: number,
  payloads: readonly MessagePayload[],
  change: ChangeDeliveryPayload | undefined,
  now: string,
): WriteEvents {
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
  // The delivery engine needs this fact, not the setting: a CloudEvent's `dataref` may only point at
  // a message the Messages API has (§6.2), whatever the setting is when the event is delivered.
  const messageStored = ctx.storeMessages !== false;
  const stored = messageStored
    ? messages.map((message) => ({
        id: message.id,
        resource_id: doc.id,
        sequence_number: message.sequenceNumber,
        type: message.type,
        doc: message,
      }))
    : [];
  const outbox: OutboxRow[] = messages.map((message) => {
    const delivery: MessageDeliveryPayload = { notificationType: 'Message', projectKey: ctx.projectKey, ...message };
    return { event_id: message.id, kind: 'message', message_type: message.type, payload: delivery, message_stored: messageStored };
  });
  if (change !== undefined) outbox.push({ event_id: randomUUID(), kind: 'change', message_type: null, payload: change });
  return { messages, storedJson: JSON.stringify(stored), outboxJson: JSON.stringify(outbox), storedCount: stored.length, outboxCount: outbox.length };
}

/** One outbox row as `eventInserts` reads it from the JSON array. */
interface OutboxRow {
  event_id: string;
  kind: 'message' | 'change';
  message_type: string | null;
  payload: unknown;
  /** Messages only; a change's row takes the column default. */
  message_stored?: boolean;
}

/** Parameter positions `eventInserts` reads. */
export interface EventParams {
  projectKey: number;
  typeId: number;
  /**
   * The write's time (ISO string): `created_at` of the stored messages. Absent, each message's own
   * `createdAt` (a statement that writes several resources, each at its own time).
   */
  now?: number;
  stored: number;
  outbox: number;
}

/**
 * Which events a statement inserts when its resource write is conditional: a CTE name (the events
 * only if that CTE returned a row: a conditional update that matched), or, for a statement that
 * writes several resources, the writes that matched (`written`: a CTE returning the column `n`, the
 * write's position in the batch) and two integer-array parameters naming the write each stored
 * message and each outbox row belongs to, by their positions in the JSON arrays.
 */
export type EventGuard = string | { written: string; storedOwners: number; outboxOwners: number };

function guardCondition(guard: EventGuard | undefined, owners: 'storedOwners' | 'outboxOwners'): string {
  if (guard === undefined) return '';
  if (typeof guard === 'string') return ` AND EXISTS (SELECT 1 FROM ${guard})`;
  return ` AND ($${guard[owners]}::integer[])[e.n] IN (SELECT n FROM ${guard.written})`;
}

/**
 * Two data-modifying CTEs (`stored_messages`, `queued`) that insert a write's prepared events: put
 * them after the CTE that writes the resource, in one statement, which makes the resource write,
 * its messages and its outbox rows one atomic unit and one round trip. With `guard`, only the
 * events of writes that happened are inserted (EventGuard).
 *
 * Outbox rows are inserted in their array order (`seq` follows it): messages in sequence order,
 * then the change notification, as separate statements did before.
 */
export function eventInserts(params: EventParams, guard?: EventGuard): string {
  const createdAt = params.now === undefined ? `(e.value->'doc'->>'createdAt')::timestamptz` : `$${params.now}::timestamptz`;
  return `stored_messages AS (
    INSERT INTO messages (project_key, id, resource_type_id, resource_id, sequence_number, type, created_at, last_modified_at, doc)
    SELECT $${params.projectKey}, e.value->>'id', $${params.typeId}, e.value->>'resource_id', (e.value->>'sequence_number')::integer,
      e.value->>'type', ${createdAt}, ${createdAt}, e.value->'doc'
    FROM jsonb_array_elements($${params.stored}::jsonb) WITH ORDINALITY AS e(value, n)
    WHERE true${guardCondition(guard, 'storedOwners')}),
  queued AS (
    INSERT INTO outbox (project_key, event_id, kind, resource_type_id, message_type, payload, message_stored)
    SELECT $${params.projectKey}, e.value->>'event_id', e.value->>'kind', $${params.typeId}, e.value->>'message_type', e.value->'payload',
      COALESCE((e.value->'message_stored')::boolean, true)
    FROM jsonb_array_elements($${params.outbox}::jsonb) WITH ORDINALITY AS e(value, n)
    WHERE true${guardCondition(guard, 'outboxOwners')}
    ORDER BY e.n)`;
}

const APPEND_SQL = `WITH ${eventInserts({ projectKey: 1, typeId: 2, now: 3, stored: 4, outbox: 5 })} SELECT 1`;

/**
 * Appends messages and/or a change notification on their own (inside the caller's transaction),
 * in one statement. Document writes use `eventInserts` inside their own statement instead.
 */
export async function appendEvents(
  tx: Queryable,
  ctx: WriteContext,
  typeId: string,
  doc: BaseResource,
  lastSequence: number,
  payloads: readonly MessagePayload[],
  change: ChangeDeliveryPayload | undefined,
  now: string,
): Promise<Message[]> {
  const events = prepareEvents(ctx, typeId, doc, lastSequence, payloads, change, now);
  await tx.query(APPEND_SQL, [ctx.projectKey, typeId, now, events.storedJson, events.outboxJson], { prepare: true, appendsOutbox: true });
  return events.messages;
}
