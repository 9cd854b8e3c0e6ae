import { describe, expect, it } from 'vitest';
import {
  ApiError,
  cloudEventSource,
  cloudEventType,
  concurrentModification,
  deduplicationKey,
  isEventResourceTypeId,
  isKnownEventType,
  isKnownMessageType,
  isResourceTypeId,
  messageDataRef,
  resourcePathSegment,
  resourceStreamKey,
  type DeliveryPayload,
} from '../src/index.js';

const message: DeliveryPayload = {
  notificationType: 'Message',
  projectKey: 'shop',
  resource: { typeId: 'quote-request', id: 'q1' },
  id: 'm1',
  version: 1,
  sequenceNumber: 3,
  resourceVersion: 4,
  createdAt: '2026-01-01T00:00:00.000Z',
  lastModifiedAt: '2026-01-01T00:00:00.000Z',
  type: 'QuoteRequestStateChanged',
};

const change: DeliveryPayload = {
  notificationType: 'ResourceUpdated',
  projectKey: 'shop',
  resource: { typeId: 'store', id: 's1' },
  version: 7,
  oldVersion: 5,
  modifiedAt: '2026-01-01T00:00:00.000Z',
};

describe('delivery keys (§6.2 delivery guarantees)', () => {
  it('deduplicates messages by resource id and sequence number', () => {
    expect(deduplicationKey(message)).toBe('herald:shop:quote-request:q1:m:3');
  });

  it('deduplicates changes by resource id, notification type and version', () => {
    expect(deduplicationKey(change, 'svc')).toBe('svc:shop:store:s1:c:ResourceUpdated:7');
  });

  it('orders per resource stream', () => {
    expect(resourceStreamKey(message)).toBe('shop:quote-request:q1');
  });
});

describe('CloudEvents naming (§6.2)', () => {
  it('types messages and changes under the namespace', () => {
    expect(cloudEventType(message)).toBe('com.commercetools.quote-request.message.QuoteRequestStateChanged');
    expect(cloudEventType(change, 'org.example')).toBe('org.example.store.change.ResourceUpdated');
  });

  it('keeps the original message type when the payload was not included', () => {
    const stripped: DeliveryPayload = { ...message, type: undefined, payloadNotIncluded: { reason: 'too large', payloadType: 'QuoteRequestCreated' } };
    delete (stripped as { type?: string }).type;
    expect(cloudEventType(stripped)).toBe('com.commercetools.quote-request.message.QuoteRequestCreated');
  });

  it('derives source (the collection path, as the reference CloudEventsPayload defines it) and dataref from REST paths', () => {
    expect(cloudEventSource('shop', 'quote-request')).toBe('/shop/quote-requests');
    expect(cloudEventSource('shop', 'category')).toBe('/shop/categories');
    expect(cloudEventSource('shop', 'key-value-document')).toBe('/shop/custom-objects');
    expect(messageDataRef('shop', 'm1')).toBe('/shop/messages/m1');
    expect(resourcePathSegment('business-unit')).toBe('business-units');
  });
});

describe('resource and message types (§2.4)', () => {
  it('knows the subscribable resource type ids and nothing else', () => {
    expect(isResourceTypeId('quote-request')).toBe(true);
    expect(isResourceTypeId('standalone-price')).toBe(true);
    expect(isResourceTypeId('quote-requests')).toBe(false);
    expect(isResourceTypeId(7)).toBe(false);
  });

  it('validates event types per event resource type (reference EventSubscriptionResourceTypeId, EventType)', () => {
    expect(isEventResourceTypeId('import-api')).toBe(true);
    expect(isEventResourceTypeId('checkout')).toBe(true);
    expect(isEventResourceTypeId('constructor')).toBe(false);
    expect(isKnownEventType('import-api', 'ImportContainerCreated')).toBe(true);
    expect(isKnownEventType('checkout', 'ImportContainerCreated')).toBe(false);
    expect(isKnownEventType('checkout', 'CheckoutPaymentCharged')).toBe(true);
  });

  it('validates message types per resource type', () => {
    expect(isKnownMessageType('business-unit', 'BusinessUnitCreated')).toBe(true);
    expect(isKnownMessageType('store', 'BusinessUnitCreated')).toBe(false);
    expect(isKnownMessageType('nope', 'StoreCreated')).toBe(false);
  });
});

describe('ApiError', () => {
  it('carries the status, the first code and extra fields such as currentVersion', () => {
    const error = concurrentModification(3, 2);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.statusCode).toBe(409);
    expect(error.code).toBe('ConcurrentModification');
    expect(error.errors[0]).toMatchObject({ currentVersion: 3 });
  });
});
