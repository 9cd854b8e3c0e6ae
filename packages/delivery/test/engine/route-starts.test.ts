import { describe, expect, it } from 'vitest';
import { effectiveRoutes, FROM_THE_START, nextRouteStarts, seeingNotItself, type RouteStart } from '../../src/engine/route-starts.js';
import type { RoutingKey } from '../../src/engine/matching.js';

const all = (resourceTypeId: string): RoutingKey => ({ kind: 'message', resourceTypeId, messageType: null });
const type = (resourceTypeId: string, messageType: string): RoutingKey => ({ kind: 'message', resourceTypeId, messageType });
const changes = (resourceTypeId: string): RoutingKey => ({ kind: 'change', resourceTypeId, messageType: null });
/** A route started by a write whose snapshot saw every transaction before `xid`. */
const from = (key: RoutingKey, xid: number): RouteStart => ({ ...key, startSnapshot: at(xid) });
const at = (xid: number): string => `${xid}:${xid}:`;

/** Sorted, so that the order routes are listed in does not matter. */
function sorted(routes: readonly RouteStart[]): RouteStart[] {
  return [...routes].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

describe('nextRouteStarts: each filter entry routes events committed after it was added', () => {
  it('a new subscription starts every key at the current position (duplicates once)', () => {
    expect(sorted(nextRouteStarts([], [type('store', 'StoreCreated'), type('store', 'StoreCreated'), changes('store')], at(40)))).toEqual(
      sorted([from(type('store', 'StoreCreated'), 40), from(changes('store'), 40)]),
    );
  });

  it('an unchanged key keeps its start; an added one starts now; a removed one is gone', () => {
    const before = [from(type('store', 'StoreCreated'), 10), from(changes('store'), 10)];
    expect(sorted(nextRouteStarts(before, [type('store', 'StoreCreated'), changes('customer')], at(50)))).toEqual(
      sorted([from(type('store', 'StoreCreated'), 10), from(changes('customer'), 50)]),
    );
  });

  it('widening one type to all messages keeps that type from its start and the others from now', () => {
    const widened = nextRouteStarts([from(type('store', 'StoreCreated'), 10)], [all('store')], at(50));
    expect(sorted(widened)).toEqual(sorted([from(all('store'), 50), from(type('store', 'StoreCreated'), 10)]));
  });

  it('narrowing all messages to one type keeps the earliest start that covered it', () => {
    const widened = [from(all('store'), 50), from(type('store', 'StoreCreated'), 10)];
    expect(nextRouteStarts(widened, [type('store', 'StoreNameSet')], at(90))).toEqual([from(type('store', 'StoreNameSet'), 50)]);
    expect(nextRouteStarts(widened, [type('store', 'StoreCreated')], at(90))).toEqual([from(type('store', 'StoreCreated'), 10)]);
  });

  it('a covered route with a later start than its cover is not kept (it adds nothing)', () => {
    expect(nextRouteStarts([from(all('store'), 10), from(type('store', 'StoreCreated'), 30)], [all('store')], at(90))).toEqual([from(all('store'), 10)]);
  });

  it('messages and changes of the same resource type never cover each other', () => {
    expect(sorted(nextRouteStarts([from(all('store'), 10)], [changes('store')], at(90)))).toEqual([from(changes('store'), 90)]);
  });

  it('a subscription written before starts were kept routes its keys from the start, which stays the earliest', () => {
    const legacy = effectiveRoutes({ messages: [{ resourceTypeId: 'store', types: ['StoreCreated'] }], changes: [{ resourceTypeId: 'cart' }] }, []);
    expect(sorted(legacy)).toEqual(
      sorted([
        { ...type('store', 'StoreCreated'), startSnapshot: FROM_THE_START },
        { ...changes('cart'), startSnapshot: FROM_THE_START },
      ]),
    );
    expect(nextRouteStarts(legacy, [all('store')], at(90))).toEqual([
      from(all('store'), 90),
      { ...type('store', 'StoreCreated'), startSnapshot: FROM_THE_START },
    ]);
  });

  it('routes what the document subscribes to: rows it no longer matches never narrow it, nor widen it', () => {
    // Rows recorded for StoreCreated only; the document (written by a build without starts) says all store messages and changes.
    const recorded = [from(type('store', 'StoreCreated'), 10)];
    expect(sorted(effectiveRoutes({ messages: [{ resourceTypeId: 'store' }], changes: [{ resourceTypeId: 'store' }] }, recorded))).toEqual(
      sorted([
        { ...all('store'), startSnapshot: FROM_THE_START },
        { ...changes('store'), startSnapshot: FROM_THE_START },
      ]),
    );
    // Rows for all store messages; the document was narrowed to StoreCreated: only that, from the rows' start.
    expect(effectiveRoutes({ messages: [{ resourceTypeId: 'store', types: ['StoreCreated'] }], changes: [] }, [from(all('store'), 10)])).toEqual([
      from(type('store', 'StoreCreated'), 10),
    ]);
  });

  it('compares snapshots by what they see, not as text', () => {
    expect(nextRouteStarts([{ ...all('store'), startSnapshot: '9:10:' }], [type('store', 'StoreCreated')], '100:100:')).toEqual([
      { ...type('store', 'StoreCreated'), startSnapshot: '9:10:' },
    ]);
  });

  it('compares snapshots that list several running transactions', () => {
    const previous = [
      { ...type('store', 'StoreCreated'), startSnapshot: '30:40:31,35' },
      { ...all('store'), startSnapshot: '9:20:9,12,15' },
    ];
    expect(nextRouteStarts(previous, [type('store', 'StoreCreated')], '50:60:51,52')).toEqual([
      { ...type('store', 'StoreCreated'), startSnapshot: '9:20:9,12,15' },
    ]);
  });
});

describe('seeingNotItself: the start of a write does not see the write itself', () => {
  it('lists the writing transaction as running when the snapshot would see it', () => {
    // PostgreSQL: a later transaction committed (xmax 812), and 805 is not listed as running.
    expect(seeingNotItself('800:812:801,809', '805')).toBe('800:812:801,805,809');
    expect(seeingNotItself('806:812:', '805')).toBe('805:812:805');
  });

  it('leaves a snapshot alone that already does not see it', () => {
    expect(seeingNotItself('756:756:', '756')).toBe('756:756:');
    expect(seeingNotItself('800:812:805', '805')).toBe('800:812:805');
  });
});
