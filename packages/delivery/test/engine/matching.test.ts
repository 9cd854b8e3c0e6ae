import { describe, expect, it } from 'vitest';
import { subscriptionMatches } from '../../src/engine/matching.js';

describe('subscriptionMatches (§2.4)', () => {
  const message = (resourceTypeId: string, messageType: string) => ({ kind: 'message' as const, resourceTypeId, messageType });
  const change = (resourceTypeId: string) => ({ kind: 'change' as const, resourceTypeId, messageType: null });

  it('matches messages by resource type and listed types', () => {
    const subscription = { messages: [{ resourceTypeId: 'store', types: ['StoreCreated'] }], changes: [] };
    expect(subscriptionMatches(subscription, message('store', 'StoreCreated'))).toBe(true);
    expect(subscriptionMatches(subscription, message('store', 'StoreDeleted'))).toBe(false);
    expect(subscriptionMatches(subscription, message('customer', 'StoreCreated'))).toBe(false);
    expect(subscriptionMatches(subscription, change('store'))).toBe(false);
  });

  it('covers all messages of the resource type when types is empty or absent', () => {
    for (const entry of [{ resourceTypeId: 'store', types: [] }, { resourceTypeId: 'store' }]) {
      const subscription = { messages: [entry], changes: [] };
      expect(subscriptionMatches(subscription, message('store', 'StoreDeleted'))).toBe(true);
      expect(subscriptionMatches(subscription, message('business-unit', 'BusinessUnitCreated'))).toBe(false);
    }
  });

  it('matches changes by resource type', () => {
    const subscription = { messages: [], changes: [{ resourceTypeId: 'store' }] };
    expect(subscriptionMatches(subscription, change('store'))).toBe(true);
    expect(subscriptionMatches(subscription, change('customer'))).toBe(false);
    expect(subscriptionMatches(subscription, message('store', 'StoreCreated'))).toBe(false);
  });
});
