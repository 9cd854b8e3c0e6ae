/**
 * Waits until `condition` holds, yielding to the event loop between checks (I/O and timers of the
 * code under test run meanwhile). A condition, not a sleep: it returns as soon as it holds.
 */
export async function until(condition: () => boolean, what: string, maxTurns = 200_000): Promise<void> {
  for (let turn = 0; turn < maxTurns; turn++) {
    if (condition()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`gave up waiting until ${what}`);
}

/** Yields one turn of the event loop. */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}
