import { describe, expect, it } from 'vitest';
import { AttemptCounter } from '../../src/sources/attempt-counter.js';

describe('AttemptCounter (Pub/Sub without a server count)', () => {
  it('counts the deliveries of a message until it is settled for good', () => {
    const counter = new AttemptCounter();
    expect([counter.next('a'), counter.next('a'), counter.next('b'), counter.next('a')]).toEqual([1, 2, 1, 3]);
    counter.forget('a');
    expect(counter.next('a')).toBe(1);
  });

  it('forgets the message delivered longest ago beyond its capacity', () => {
    const counter = new AttemptCounter(2);
    counter.next('a');
    counter.next('b');
    counter.next('a'); // a is now the most recent
    counter.next('c'); // b goes
    expect(counter.next('b')).toBe(1);
    expect(counter.next('a')).toBe(1); // c and b were delivered after a's last delivery: a went
  });
});
