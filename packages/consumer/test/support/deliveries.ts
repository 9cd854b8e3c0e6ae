import type { RawDelivery } from '../../src/index.js';
import type { ManualClock } from './manual-clock.js';
import { nextTurn } from './until.js';

/** A delivery as the SQS poller hands it over (Platform JSON body). */
export function sqs(payload: object, extra: Partial<RawDelivery> = {}): RawDelivery {
  return { source: 'sqs', body: JSON.stringify(payload), ...extra } as RawDelivery;
}

/** Moves the clock in steps, letting the code under test run between them. */
export async function elapse(clock: ManualClock, ms: number, stepMs = 250): Promise<void> {
  for (let elapsed = 0; elapsed < ms; elapsed += stepMs) {
    clock.advance(Math.min(stepMs, ms - elapsed));
    for (let turn = 0; turn < 5; turn++) await nextTurn();
  }
}

export async function settleTurns(turns = 10): Promise<void> {
  for (let turn = 0; turn < turns; turn++) await nextTurn();
}
