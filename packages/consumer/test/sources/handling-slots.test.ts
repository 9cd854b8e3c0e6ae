import { describe, expect, it } from 'vitest';
import { HandlingSlots } from '../../src/sources/handling-slots.js';
import { ManualClock } from '../support/manual-clock.js';

describe('HandlingSlots', () => {
  it('does not pile up a waiter every recheck while all slots stay full', async () => {
    const clock = new ManualClock();
    const slots = new HandlingSlots({ bufferedCount: 0 }, clock, 1);
    let settle!: () => void;
    slots.track(new Promise<void>((resolve) => (settle = resolve)));
    let free = false;
    void slots.whenFree().then(() => (free = true));
    for (let round = 0; round < 100; round++) {
      clock.advance(50);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(free).toBe(false);
    expect([...(slots as unknown as { waiters: Iterable<unknown> }).waiters]).toHaveLength(1);
    settle();
    await new Promise((resolve) => setImmediate(resolve));
    expect(free).toBe(true);
  });
});
