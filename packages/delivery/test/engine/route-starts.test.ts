import { describe, expect, it } from 'vitest';
import { nextRouteStarts, routesFromStart, type RouteStart } from '../../src/engine/route-starts.js';
import type { RoutingKey } from '../../src/engine/matching.js';

const all = (resourceTypeId: string): RoutingKey => ({ kind: 'message', resourceTypeId, messageType: null });
const type = (resourceTypeId: string, messageType: string): RoutingKey => ({ kind: 'message', resourceTypeId, messageType });
const changes = (resourceTypeId: string): RoutingKey => ({ kind: 'change', resourceTypeId, messageType: null });
const from = (key: RoutingKey, afterSeq: number): RouteStart => ({ ...key, afterSeq });

/** Sorted, so that the order routes are listed in does not matter. */
function sorted(routes: readonly RouteStart[]): RouteStart[] {
  return [...routes].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

describe('nextRouteStarts: each filter entry routes events written after it was added', () => {
  it('a new subscription starts every key at the current position (duplicates once)', () => {
    expect(sorted(nextRouteStarts([], [type('store', 'StoreCreated'), type('store', 'StoreCreated'), changes('store')], 40))).toEqual(
      sorted([from(type('store', 'StoreCreated'), 40), from(changes('store'), 40)]),
    );
  });

  it('an unchanged key keeps its start; an added one starts now; a removed one is gone', () => {
    const before = [from(type('store', 'StoreCreated'), 10), from(changes('store'), 10)];
    expect(sorted(nextRouteStarts(before, [type('store', 'StoreCreated'), changes('customer')], 50))).toEqual(
      sorted([from(type('store', 'StoreCreated'), 10), from(changes('customer'), 50)]),
    );
  });

  it('widening one type to all messages keeps that type from its start and the others from now', () => {
    const widened = nextRouteStarts([from(type('store', 'StoreCreated'), 10)], [all('store')], 50);
    expect(sorted(widened)).toEqual(sorted([from(all('store'), 50), from(type('store', 'StoreCreated'), 10)]));
  });

  it('narrowing all messages to one type keeps the earliest start that covered it', () => {
    const widened = [from(all('store'), 50), from(type('store', 'StoreCreated'), 10)];
    expect(nextRouteStarts(widened, [type('store', 'StoreNameSet')], 90)).toEqual([from(type('store', 'StoreNameSet'), 50)]);
    expect(nextRouteStarts(widened, [type('store', 'StoreCreated')], 90)).toEqual([from(type('store', 'StoreCreated'), 10)]);
  });

  it('a covered route with a later start than its cover is not kept (it adds nothing)', () => {
    expect(nextRouteStarts([from(all('store'), 10), from(type('store', 'StoreCreated'), 30)], [all('store')], 90)).toEqual([
      from(all('store'), 10),
    ]);
  });

  it('messages and changes of the same resource type never cover each other', () => {
    expect(sorted(nextRouteStarts([from(all('store'), 10)], [changes('store')], 90))).toEqual([from(changes('store'), 90)]);
  });

  it('a subscription written before starts were kept routes its keys from the start', () => {
    expect(sorted(routesFromStart({ messages: [{ resourceTypeId: 'store', types: ['StoreCreated'] }], changes: [{ resourceTypeId: 'cart' }] }))).toEqual(
      sorted([from(type('store', 'StoreCreated'), 0), from(changes('cart'), 0)]),
    );
  });
});
