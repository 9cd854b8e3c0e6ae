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

  it('admits one caller per free slot when several wait for it', async () => {
    const clock = new ManualClock();
    const slots = new HandlingSlots({ bufferedCount: 0 }, clock, 2);
    const endings: (() => void)[] = [];
    const work = () => new Promise<void>((resolve) => endings.push(resolve));
    await slots.admit(work);
    await slots.admit(work);
    // Five callers wait (as Service Bus' concurrent processMessage calls do); one slot frees.
    const admitted = Array.from({ length: 5 }, () => slots.admit(work));
    endings.shift()?.();
    for (let round = 0; round < 5; round++) await new Promise((resolve) => setImmediate(resolve));
    expect(slots.inFlight).toBe(2);
    // Each later ending lets exactly one more in.
    endings.shift()?.();
    for (let round = 0; round < 5; round++) await new Promise((resolve) => setImmediate(resolve));
    expect(slots.inFlight).toBe(2);
    for (let i = 0; i < 10 && endings.length > 0; i++) {
      endings.shift()?.();
      for (let round = 0; round < 5; round++) await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(admitted);
  });
});
