/**
 * The worker's health, for `/healthz`: its loops run, its last database round trip succeeded, and
 * no loop is stuck. A loop stuck in a query that never answers (a hung server, a network partition:
 * the connection stays open, nothing comes back) records no failure, so every loop tells its
 * watch, before each step, how long that step may take: a database round trip at most
 * `roundTripTimeoutMs`, a sleep its length (plus the same margin, for timers that fire late on a
 * busy event loop). A loop that has not reported again by then is stalled, and the worker unhealthy.
 */
export interface LoopWatch {
  /** A database round trip starts: it must end within the round-trip timeout. */
  roundTrip(): void;
  /** The loop sleeps `ms`, then starts its next round trip. */
  sleep(ms: number): void;
  /** The loop waits for something that is no database round trip of its own (sends in flight). */
  waitUnbounded(): void;
}

export interface HealthStatus {
  healthy: boolean;
  /** Why not, for the log: a failed round trip, or the loops stalled and for how long. */
  reason?: string;
}

export interface WorkerHealthOptions {
  roundTripTimeoutMs: number;
  /** Monotonic milliseconds (default `performance.now`); never the injected wall clock. */
  now?: () => number;
}

export class WorkerHealth {
  private readonly now: () => number;
  private readonly timeoutMs: number;
  private readonly deadlines = new Map<string, number>();
  private lastRoundTripOk = true;

  constructor(options: WorkerHealthOptions) {
    this.timeoutMs = options.roundTripTimeoutMs;
    this.now = options.now ?? (() => performance.now());
  }

  /** The watch of the loop `name`: stalled unless it reports within its last step's bound. */
  watch(name: string): LoopWatch {
    const set = (ms: number): void => {
      this.deadlines.set(name, this.now() + ms);
    };
    set(this.timeoutMs);
    return {
      roundTrip: () => set(this.timeoutMs),
      sleep: (ms) => set(ms + this.timeoutMs),
      waitUnbounded: () => set(Number.POSITIVE_INFINITY),
    };
  }

  /** A round trip of any loop succeeded. */
  succeeded(): void {
    this.lastRoundTripOk = true;
  }

  /** A round trip of any loop failed: unhealthy until one succeeds. */
  failed(): void {
    this.lastRoundTripOk = false;
  }

  status(): HealthStatus {
    const now = this.now();
    const stalled = [...this.deadlines].filter(([, deadline]) => now > deadline);
    if (stalled.length > 0) {
      const detail = stalled.map(([name, deadline]) => `${name} ${Math.round(now - deadline + this.timeoutMs)} ms`).join(', ');
      return { healthy: false, reason: `no database round trip completed within ${this.timeoutMs} ms: ${detail}` };
    }
    if (!this.lastRoundTripOk) return { healthy: false, reason: 'the last database round trip failed' };
    return { healthy: true };
  }
}
