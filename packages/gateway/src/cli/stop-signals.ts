/**
 * SIGTERM and SIGINT, caught from the first lines of the entry point (before the modules that take
 * seconds to load), so that a stop during start-up is never the default action's kill.
 */
export type StopSignal = 'SIGTERM' | 'SIGINT';

const STOP_SIGNALS: readonly StopSignal[] = ['SIGTERM', 'SIGINT'];

/** What a shell reports for a process the signal ended: 128 + its number. */
const EXIT_CODE_OF: Readonly<Record<StopSignal, number>> = { SIGTERM: 143, SIGINT: 130 };

export class StopSignals {
  private received: StopSignal | undefined;
  private listener: ((signal: StopSignal) => void) | undefined;
  private readonly receive = (signal: StopSignal): void => {
    // A second signal, the same or the other, must not start a second stop.
    if (this.received !== undefined) return;
    this.received = signal;
    this.listener?.(signal);
  };

  constructor() {
    for (const signal of STOP_SIGNALS) process.on(signal, this.receive);
  }

  /** A long-running command takes over: `listener` runs once, at once if a signal came already. */
  handle(listener: (signal: StopSignal) => void): void {
    this.listener = listener;
    if (this.received !== undefined) listener(this.received);
  }

  /**
   * A short command gives the signals back to their default action; one that came meanwhile ends
   * the process now, with the code that action would have given it.
   */
  release(): void {
    for (const signal of STOP_SIGNALS) process.off(signal, this.receive);
    if (this.received !== undefined) process.exit(EXIT_CODE_OF[this.received]);
  }
}
