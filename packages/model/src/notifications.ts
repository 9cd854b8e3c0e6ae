import type { Initiator, Reference, UserProvidedIdentifiers } from './references.js';

/** §6.2 `notificationType` values. */
export type NotificationType = 'Message' | 'ResourceCreated' | 'ResourceUpdated' | 'ResourceDeleted';
export type ChangeNotificationType = Exclude<NotificationType, 'Message'>;

/** Fields every Platform-format delivery carries (§6.2). */
interface DeliveryCommon {
  projectKey: string;
  resource: Reference;
  resourceUserProvidedIdentifiers?: UserProvidedIdentifiers;
}

/** §6.2: reason and original `type` when the payload did not fit the destination. */
export interface PayloadNotIncluded {
  reason: string;
  payloadType: string;
}

export interface MessageDeliveryPayload extends DeliveryCommon {
  notificationType: 'Message';
  id: string;
  version: number;
  sequenceNumber: number;
  resourceVersion: number;
  createdAt: string;
  lastModifiedAt: string;
  createdBy?: Initiator;
  lastModifiedBy?: Initiator;
  /** Present when the message-specific fields are included. */
  type?: string;
  payloadNotIncluded?: PayloadNotIncluded;
  [payloadField: string]: unknown;
}

export interface ResourceCreatedDeliveryPayload extends DeliveryCommon {
  notificationType: 'ResourceCreated';
  version: number;
  modifiedAt: string;
}

export interface ResourceUpdatedDeliveryPayload extends DeliveryCommon {
  notificationType: 'ResourceUpdated';
  version: number;
  oldVersion: number;
  modifiedAt: string;
}

export interface ResourceDeletedDeliveryPayload extends DeliveryCommon {
  notificationType: 'ResourceDeleted';
  version: number;
  modifiedAt: string;
  dataErasure?: boolean;
}

export type ChangeDeliveryPayload = ResourceCreatedDeliveryPayload | ResourceUpdatedDeliveryPayload | ResourceDeletedDeliveryPayload;

/** What a subscription delivers in the Platform format. */
export type DeliveryPayload = MessageDeliveryPayload | ChangeDeliveryPayload;

export function isMessagePayload(payload: DeliveryPayload): payload is MessageDeliveryPayload {
  return payload.notificationType === 'Message';
}
