import type {
  ChangeDeliveryPayload,
  Format,
  MessageDeliveryPayload,
  ResourceCreatedDeliveryPayload,
  ResourceDeletedDeliveryPayload,
  ResourceUpdatedDeliveryPayload,
} from '@herald/model';
import { formatDelivery } from '../../../src/format/formatted.js';

/** Delivery payloads as the router hands them to a destination (§6.2), deterministic per index. */
export const PROJECT_KEY = 'conformance-shop';

const resourceId = (i: number): string => `0b5b7c2e-6f1a-4c8e-9d3a-${String(i).padStart(12, '0')}`;

export function messagePayload(i: number, extra: Record<string, unknown> = {}): MessageDeliveryPayload {
  return {
    notificationType: 'Message',
    projectKey: PROJECT_KEY,
    id: `7e1d1f4c-1a3b-4b7e-8c55-${String(i).padStart(12, '0')}`,
    version: 1,
    sequenceNumber: i + 1,
    resource: { typeId: 'business-unit', id: resourceId(i) },
    resourceVersion: i + 1,
    resourceUserProvidedIdentifiers: { key: `unit-${i}` },
    createdAt: '2025-03-04T05:06:07.890Z',
    lastModifiedAt: '2025-03-04T05:06:07.890Z',
    createdBy: { isPlatformClient: true, clientId: 'client-1' },
    lastModifiedBy: { isPlatformClient: true, clientId: 'client-1' },
    type: 'BusinessUnitNameChanged',
    name: `Unit ${i} — Grüße`,
    ...extra,
  };
}

export function createdPayload(i: number): ResourceCreatedDeliveryPayload {
  return {
    notificationType: 'ResourceCreated',
    projectKey: PROJECT_KEY,
    resource: { typeId: 'quote-request', id: resourceId(i) },
    version: 1,
    modifiedAt: '2025-03-04T05:06:08.000Z',
  };
}

export function updatedPayload(i: number): ResourceUpdatedDeliveryPayload {
  return {
    notificationType: 'ResourceUpdated',
    projectKey: PROJECT_KEY,
    resource: { typeId: 'customer', id: resourceId(i) },
    resourceUserProvidedIdentifiers: { customerNumber: `C-${i}` },
    version: 5,
    oldVersion: 3,
    modifiedAt: '2025-03-04T05:06:09.000Z',
  };
}

export function deletedPayload(i: number): ResourceDeletedDeliveryPayload {
  return {
    notificationType: 'ResourceDeleted',
    projectKey: PROJECT_KEY,
    resource: { typeId: 'store', id: resourceId(i) },
    version: 7,
    modifiedAt: '2025-03-04T05:06:10.000Z',
    dataErasure: true,
  };
}

export const changePayloads = (i: number): ChangeDeliveryPayload[] => [createdPayload(i), updatedPayload(i), deletedPayload(i)];

/** A message whose own fields make it larger than `bytes`. */
export function oversizedMessage(i: number, bytes: number): MessageDeliveryPayload {
  return messagePayload(i, { type: 'BusinessUnitAssociatesSet', associates: [{ note: 'x'.repeat(bytes) }] });
}

/** A message too large even without its payload (its identifiers alone exceed the limit). */
export function hopelesslyLargeMessage(i: number, bytes: number): MessageDeliveryPayload {
  return messagePayload(i, { resourceUserProvidedIdentifiers: { key: 'k'.repeat(bytes) } });
}

/** A message whose formatted document (`format`, type prefix `com.commercetools`) is exactly `bytes` long. */
export function messageOfFormattedBytes(i: number, bytes: number, format: Format): MessageDeliveryPayload {
  const measure = (padding: number): number =>
    Buffer.byteLength(formatDelivery(oversizedMessage(i, padding), format, { cloudEventsTypePrefix: 'com.commercetools' }).json);
  let padding = bytes;
  let size = measure(padding);
  for (let attempt = 0; attempt < 4 && size !== bytes; attempt++) {
    padding += bytes - size;
    size = measure(padding);
  }
  if (size !== bytes) throw new Error(`no message of exactly ${bytes} bytes`);
  return oversizedMessage(i, padding);
}
