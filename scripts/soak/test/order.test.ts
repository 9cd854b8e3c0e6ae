import { describe, expect, it } from 'vitest';
import { LaneOrder, laneOf } from '../order.js';

const change = (id: string, version: number): string => `herald:soak:store:${id}:c:${version === 1 ? 'ResourceCreated' : 'ResourceUpdated'}:${version}`;
const message = (id: string, sequence: number): string => `herald:soak:store:${id}:m:${sequence}`;

describe('LaneOrder', () => {
  it('puts a resource change notifications and its messages in two lanes', () => {
    expect(laneOf(change('a', 1))).toEqual({ lane: 'herald:soak:store:a:c', position: 1 });
    expect(laneOf(change('a', 7))).toEqual({ lane: 'herald:soak:store:a:c', position: 7 });
    expect(laneOf(message('a', 7))).toEqual({ lane: 'herald:soak:store:a:m', position: 7 });
    expect(laneOf('herald:soak:subscription:x:test')).toBeUndefined();
  });

  it('counts a run behind a later one of its lane, apart from those the consumer marked late', () => {
    const order = new LaneOrder();
    order.note(change('a', 1), '-');
    order.note(message('a', 2), '-');
    order.note(message('a', 1), '-'); // the messages lane was at 2 already: broken order
    order.note(change('a', 3), 'gap');
    order.note(change('a', 2), 'late'); // documented: a late predecessor, marked
    order.note(change('b', 2), '-');
    order.note(change('b', 1), '-'); // another resource, broken as well
    expect(order.behindUnmarked).toBe(2);
    expect(order.behindMarkedLate).toBe(1);
    expect(order.unmarkedExamples).toEqual([`${message('a', 1)} after 2`, `${change('b', 1)} after 2`]);
  });

  it('counts nothing when every lane runs in order, whatever the interleaving of resources and lanes', () => {
    const order = new LaneOrder();
    for (let version = 1; version <= 5; version++) {
      order.note(message('b', version), '-');
      order.note(change('a', version), '-');
      order.note(message('a', version), '-');
      order.note(change('b', version), '-');
    }
    expect(order.behindUnmarked + order.behindMarkedLate).toBe(0);
  });
});
