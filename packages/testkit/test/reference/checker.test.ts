import { describe, expect, it } from 'vitest';
import { checkAgainstReference, checkAgainstReferenceTypes, referenceFacts } from '../../src/index.js';

/** The messages only: a failing assertion then prints the whole list. */
const check = (type: string, value: unknown, options?: Parameters<typeof checkAgainstReference>[2]) =>
  checkAgainstReference(type, value, options).map((violation) => violation.message);

const AT = '2026-11-27T10:00:00.000Z';
const ID = '5f0c5c1e-8d3b-4c35-9d0c-3d3c1f7b2a10';

/** A Customer as the official API answers one (written for this test from the reference's type). */
function customer(): Record<string, unknown> {
  return {
    id: ID,
    version: 2,
    key: 'erika',
    createdAt: AT,
    lastModifiedAt: AT,
    lastModifiedBy: { clientId: 'admin-client' },
    email: 'erika@example.com',
    firstName: 'Erika',
    addresses: [{ id: 'addr-1', country: 'DE', city: 'Berlin' }],
    shippingAddressIds: ['addr-1'],
    billingAddressIds: [],
    isEmailVerified: false,
    customerGroupAssignments: [],
    stores: [{ typeId: 'store', key: 'berlin' }],
    authenticationMode: 'Password',
  };
}

/** A StoreCreated message as a Platform-format delivery (§6.2): the payload and the message at once. */
function storeCreatedDelivery(): Record<string, unknown> {
  return {
    notificationType: 'Message',
    projectKey: 'shop',
    resource: { typeId: 'store', id: ID },
    resourceUserProvidedIdentifiers: { key: 'berlin' },
    id: 'a6c3c0d8-5b73-4b6e-9a52-8f3c3b1f0e11',
    version: 1,
    sequenceNumber: 1,
    resourceVersion: 1,
    createdAt: AT,
    lastModifiedAt: AT,
    type: 'StoreCreated',
    name: { en: 'Berlin', 'de-DE': 'Berlin' },
    languages: ['en'],
    distributionChannels: [],
    supplyChannels: [],
    productSelections: [],
  };
}

describe('checkAgainstReference on the vendored facts', () => {
  it('records the pinned reference commit', () => {
    expect(referenceFacts.source).toEqual({ repository: 'commercetools/commercetools-api-reference', commit: '5867aa22abcab5a521bd5bf0bd3b332c5ad763ae' });
  });

  it('passes values that follow the reference', () => {
    expect(check('Customer', customer())).toEqual([]);
    expect(checkAgainstReferenceTypes(['MessageDeliveryPayload', 'Message'], storeCreatedDelivery())).toEqual([]);
  });

  it('reports a missing required field, at the top and inside an array element', () => {
    const value = customer();
    delete value.isEmailVerified;
    value.addresses = [{ id: 'addr-1', country: 'DE' }, { id: 'addr-2' }];
    expect(check('Customer', value)).toEqual(['Customer.addresses[1].country: required field missing', 'Customer.isEmailVerified: required field missing']);
  });

  it('reports scalars of the wrong kind', () => {
    expect(check('Customer', { ...customer(), version: '2', lastModifiedAt: '27.11.2026', isEmailVerified: 'no', shippingAddressIds: [7] })).toEqual([
      'Customer.version: not a number',
      'Customer.lastModifiedAt: not a datetime',
      'Customer.shippingAddressIds[0]: not a string',
      'Customer.isEmailVerified: not a boolean',
    ]);
    expect(check('Customer', { ...customer(), dateOfBirth: AT })).toEqual(['Customer.dateOfBirth: not a date-only']);
    expect(check('Customer', { ...customer(), addresses: {} })).toEqual(['Customer.addresses: not an array']);
    expect(check('Customer', { ...customer(), addresses: [null] })).toEqual(['Customer.addresses[0]: not an object']);
  });

  it('reports an enum value the reference does not list, in named and inline enums', () => {
    expect(check('Customer', { ...customer(), authenticationMode: 'Magic' })).toEqual([
      "Customer.authenticationMode: 'Magic' not one of Password|ExternalAuth",
    ]);
    expect(check('CloudEventsFormat', { type: 'CloudEvents', cloudEventsVersion: '0.1' })).toEqual([
      "CloudEventsFormat.cloudEventsVersion: '0.1' not one of 1.0",
    ]);
  });

  it('reports unknown field names, except those the caller accepts for that type', () => {
    const value = { ...customer(), nickname: 'E', addresses: [{ country: 'DE', floor: 3 }] };
    expect(check('Customer', value)).toEqual([
      'Customer.addresses[0].floor: unknown field (not in Address)',
      'Customer.nickname: unknown field (not in Customer)',
    ]);
    // Accepted for BaseAddress applies to its subtype Address too.
    expect(check('Customer', value, { extraFields: { Customer: ['nickname'], BaseAddress: ['floor'] } })).toEqual([]);
  });

  it('checks maps by their key patterns and value type (LocalizedString)', () => {
    const delivery = storeCreatedDelivery();
    expect(
      checkAgainstReferenceTypes(['MessageDeliveryPayload', 'Message'], { ...delivery, name: { en: 'Berlin', EN: 'Berlin', de: 3 } }).map((v) => v.message),
    ).toEqual([
      'MessageDeliveryPayload & Message.name.EN: name not matching /^[a-z]{2}(-[A-Z]{2})?$/ (LocalizedString)',
      'MessageDeliveryPayload & Message.name.de: not a string',
    ]);
  });

  it('chooses a subtype by its discriminator and reports values that select none', () => {
    const subscription = {
      id: ID,
      version: 1,
      createdAt: AT,
      lastModifiedAt: AT,
      destination: { type: 'SQS', queueUrl: 'http://127.0.0.1/q', accessKey: 'AKIA' },
      messages: [],
      changes: [{ resourceTypeId: 'store' }],
      events: [],
      format: { type: 'X' },
      status: 'Healthy',
    };
    expect(check('Subscription', subscription)).toEqual([
      'Subscription.destination.region: required field missing',
      "Subscription.format.type: 'X' not one of CloudEvents|Platform",
    ]);
    expect(check('Subscription', { ...subscription, format: { type: 'Platform' }, destination: { type: 'Kafka' } })).toEqual([
      "Subscription.destination.type: 'Kafka' not one of AzureServiceBus|ConfluentCloud|EventBridge|EventGrid|GoogleCloudPubSub|IronMQ|SNS|SQS",
    ]);
    // A value the discriminator's enum lists, with no subtype of its own, is the base type
    // (ReferenceTypeId lists 'subscription'; the reference has no SubscriptionReference).
    expect(check('Reference', { typeId: 'subscription', id: ID })).toEqual([]);
    expect(check('Reference', { typeId: 'subscription', id: ID, obj: {} })).toEqual(['Reference.obj: unknown field (not in Reference)']);
    expect(check('Reference', { typeId: 'subscriptions', id: ID })[0]).toMatch(/^Reference\.typeId: 'subscriptions' not one of the \d+ legal values/);
    // A subtype's own discriminator value: a CustomerReference is not a cart reference.
    expect(check('CustomerReference', { typeId: 'cart', id: ID })).toEqual(["CustomerReference.typeId: 'cart' not one of customer"]);
  });

  it('selects Message subtypes by type, and tells an illegal type from one whose facts are not vendored', () => {
    const message = { ...storeCreatedDelivery() };
    for (const key of ['notificationType', 'projectKey']) delete message[key];
    expect(check('Message', message)).toEqual([]);
    expect(check('Message', { ...message, distributionChannels: undefined })).toEqual(['Message.distributionChannels: required field missing']);
    expect(check('Message', { ...message, type: 'StoreOpened' })[0]).toMatch(/^Message\.type: 'StoreOpened' not one of the \d+ legal values/);
    // Recurring orders are not built, so their messages' facts are not vendored (Order messages are since issue 29).
    expect(check('Message', { ...message, type: 'RecurringOrderCreated' })[0]).toBe(
      "Message: facts for RecurringOrderCreatedMessage (type 'RecurringOrderCreated') are not vendored: add it to scripts/reference/roots.ts and regenerate",
    );
  });

  it('a value of several types at once: each type applies, and a field is unknown only if none declares it', () => {
    const delivery: Record<string, unknown> = { ...storeCreatedDelivery(), extra: true };
    delete delivery.sequenceNumber;
    delete delivery.supplyChannels;
    expect(checkAgainstReferenceTypes(['MessageDeliveryPayload', 'Message'], delivery).map((v) => v.message)).toEqual([
      'MessageDeliveryPayload & Message.sequenceNumber: required field missing',
      'MessageDeliveryPayload & Message.extra: unknown field (not in MessageDeliveryPayload)',
      'MessageDeliveryPayload & Message.supplyChannels: required field missing',
      'MessageDeliveryPayload & Message.extra: unknown field (not in StoreCreatedMessage)',
    ]);
  });

  it('a value of several types at once: an extra accepted for one of the types is accepted for all', () => {
    const delivery = { ...storeCreatedDelivery(), region: 'eu' };
    const extraFields = { StoreCreatedMessage: ['region'] };
    expect(checkAgainstReferenceTypes(['MessageDeliveryPayload', 'Message'], delivery, { extraFields })).toEqual([]);
    expect(checkAgainstReferenceTypes(['MessageDeliveryPayload', 'Message'], delivery).map((v) => v.message)).toContain(
      'MessageDeliveryPayload & Message.region: unknown field (not in MessageDeliveryPayload)',
    );
  });

  it('checks the value at a path as several types at once when asked (a CloudEvents message delivery)', () => {
    const event = {
      specversion: '1.0',
      id: 'a6c3c0d8-5b73-4b6e-9a52-8f3c3b1f0e11',
      type: 'com.commercetools.store.message.StoreCreated',
      source: '/shop/stores',
      subject: ID,
      time: AT,
      sequence: '1',
      sequencetype: 'Integer',
      data: storeCreatedDelivery(),
    };
    const asTypes = { 'CloudEventsPayload.data': ['MessageDeliveryPayload', 'Message'] };
    expect(check('CloudEventsPayload', event, { asTypes })).toEqual([]);
    // Without it, `data` is only a DeliveryPayload, which declares none of the message's fields.
    expect(check('CloudEventsPayload', event)).toContain('CloudEventsPayload.data.type: unknown field (not in MessageDeliveryPayload)');
    const broken = { ...event, time: 'yesterday', data: { ...storeCreatedDelivery(), languages: 'en' } };
    expect(check('CloudEventsPayload', broken, { asTypes })).toEqual([
      'CloudEventsPayload.time: not a datetime',
      'CloudEventsPayload.data.languages: not an array',
    ]);
  });

  it('checks type expressions: arrays of a type, unions with nil', () => {
    expect(check('Address[]', [{ country: 'DE' }, { city: 'Paris' }])).toEqual(['Address[][1].country: required field missing']);
    expect(check('nil | Address', null)).toEqual([]);
    expect(check('nil | Address', { city: 'Paris' }, { label: 'shippingAddress' })).toEqual(['shippingAddress.country: required field missing']);
    expect(check('nil | string', 3)).toEqual(['nil | string: not nil | string']);
  });
});
