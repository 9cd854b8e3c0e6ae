import {
  cloudEventSource,
  cloudEventType,
  messageDataRef,
  type DeliveryPayload,
  type HeraldCloudEvent,
  type MessageDeliveryPayload,
  type ResourceCreatedDeliveryPayload,
  type ResourceDeletedDeliveryPayload,
  type ResourceUpdatedDeliveryPayload,
} from '@herald/model';

export interface ResourceRef {
  readonly projectKey?: string;
  readonly typeId?: string;
  readonly id?: string;
}

const resourceOf = (ref: ResourceRef) => ({ typeId: ref.typeId ?? 'business-unit', id: ref.id ?? 'bu-1' });

export function messagePayload(sequenceNumber: number, ref: ResourceRef = {}, overrides: Partial<MessageDeliveryPayload> = {}): MessageDeliveryPayload {
  const resource = resourceOf(ref);
  return {
    notificationType: 'Message',
    projectKey: ref.projectKey ?? 'proj',
    resource,
    resourceUserProvidedIdentifiers: { key: `key-${resource.id}` },
    id: `msg-${resource.id}-${sequenceNumber}`,
    version: 1,
    sequenceNumber,
    resourceVersion: sequenceNumber,
    createdAt: '2025-01-01T00:00:00.000Z',
    lastModifiedAt: '2025-01-01T00:00:00.000Z',
    type: 'BusinessUnitNameChanged',
    name: `name ${sequenceNumber}`,
    ...overrides,
  };
}

export function createdPayload(version: number, ref: ResourceRef = {}): ResourceCreatedDeliveryPayload {
  return {
    notificationType: 'ResourceCreated',
    projectKey: ref.projectKey ?? 'proj',
    resource: resourceOf(ref),
    version,
    modifiedAt: '2025-01-01T00:00:00.000Z',
  };
}

export function updatedPayload(oldVersion: number, version: number, ref: ResourceRef = {}): ResourceUpdatedDeliveryPayload {
  return {
    notificationType: 'ResourceUpdated',
    projectKey: ref.projectKey ?? 'proj',
    resource: resourceOf(ref),
    version,
    oldVersion,
    modifiedAt: '2025-01-01T00:00:00.000Z',
  };
}

export function deletedPayload(version: number, ref: ResourceRef = {}, dataErasure?: boolean): ResourceDeletedDeliveryPayload {
  const payload: ResourceDeletedDeliveryPayload = {
    notificationType: 'ResourceDeleted',
    projectKey: ref.projectKey ?? 'proj',
    resource: resourceOf(ref),
    version,
    modifiedAt: '2025-01-01T00:00:00.000Z',
  };
  return dataErasure === undefined ? payload : { ...payload, dataErasure };
}

/** §6.2 CloudEvents envelope as Herald produces it. */
export function cloudEventOf(payload: DeliveryPayload): HeraldCloudEvent {
  const event: HeraldCloudEvent = {
    specversion: '1.0',
    id: payload.notificationType === 'Message' ? payload.id : `${payload.resource.id}-${payload.notificationType}-${payload.version}`,
    type: cloudEventType(payload),
    source: cloudEventSource(payload.projectKey, payload.resource.typeId),
    subject: payload.resource.id,
    time: '2025-01-01T00:00:00.000Z',
    datacontenttype: 'application/json',
    data: payload,
  };
  if (payload.notificationType === 'Message') {
    event.sequence = String(payload.sequenceNumber);
    event.sequencetype = 'Integer';
    event.dataref = messageDataRef(payload.projectKey, payload.id);
  }
  return event;
}

/** SNS → SQS envelope without raw message delivery. */
export function snsEnvelopeOf(body: string): string {
  return JSON.stringify({
    Type: 'Notification',
    MessageId: '6a1b2c3d-0000-4000-8000-000000000001',
    TopicArn: 'arn:aws:sns:eu-west-1:000000000000:herald',
    Message: body,
    Timestamp: '2025-01-01T00:00:01.000Z',
    SignatureVersion: '1',
    Signature: 'c2lnbmF0dXJl',
    SigningCertURL: 'https://sns.eu-west-1.amazonaws.com/cert.pem',
    UnsubscribeURL: 'https://sns.eu-west-1.amazonaws.com/?Action=Unsubscribe',
  });
}

/** EventBridge → SQS envelope. */
export function eventBridgeEnvelopeOf(detail: object): string {
  return JSON.stringify({
    version: '0',
    id: 'b1e4c7a0-0000-4000-8000-000000000002',
    'detail-type': 'BusinessUnitNameChanged',
    source: 'aws.partner/commercetools.com/proj/herald',
    account: '000000000000',
    time: '2025-01-01T00:00:02Z',
    region: 'eu-west-1',
    resources: [],
    detail,
  });
}
