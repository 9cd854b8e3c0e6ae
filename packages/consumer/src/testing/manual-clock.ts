import type { Clock, TimerHandle } from '../clock.js';

interface Timer {
  readonly at: number;
  readonly sequence: number;
  readonly callback: () => void;
  readonly scope: ClockScope | undefined;
}

/** A clock that moves only when the test says so; timers fire in due order. */
export class ManualClock implements Clock {
  private nowMs: number;
  private sequence = 0;
  private readonly timers = new Set<Timer>();

  constructor(startMs = Date.UTC(2025, 0, 1)) {
    this.nowMs = startMs;
  }

  now(): number {
    return this.nowMs;
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    return this.schedule(callback, delayMs, undefined);
  }

  /** A view of this clock whose timers can all be stopped at once (a process that dies). */
  scope(): ClockScope {
    return new ClockScope(this);
  }

  schedule(callback: () => void, delayMs: number, scope: ClockScope | undefined): TimerHandle {
    const timer: Timer = { at: this.nowMs + Math.max(0, delayMs), sequence: this.sequence++, callback, scope };
    this.timers.add(timer);
    return { cancel: () => this.timers.delete(timer) };
  }

  cancelScope(scope: ClockScope): void {
    for (const timer of this.timers) if (timer.scope === scope) this.timers.delete(timer);
  }

  /** When the next timer is due; Infinity when none is pending. */
  nextTimerAt(): number {
    let next = Number.POSITIVE_INFINITY;
    for (const timer of this.timers) next = Math.min(next, timer.at);
    return next;
  }

  /** Moves to `targetMs`, firing every timer due on the way (including ones scheduled meanwhile). */
  advanceTo(targetMs: number): void {
    for (let fired = 0; ; fired++) {
      // Code that re-arms a due timer forever would hang the test run (timers are synchronous here).
      if (fired > 100_000) throw new Error(`timers keep firing at ${this.nowMs}: a timer re-arms itself without delay`);
      let due: Timer | undefined;
      for (const timer of this.timers) {
        if (timer.at > targetMs) continue;
        if (due === undefined || timer.at < due.at || (timer.at === due.at && timer.sequence < due.sequence)) due = timer;
      }
      if (due === undefined) break;
      this.timers.delete(due);
      this.nowMs = Math.max(this.nowMs, due.at);
      due.callback();
    }
    this.nowMs = Math.max(this.nowMs, targetMs);
  }

  advance(ms: number): void {
    this.advanceTo(this.nowMs + ms);
  }
}

export class ClockScope implements Clock {
  private frozen = false;

  constructor(private readonly clock: ManualClock) {}

  now(): number {
    return this.clock.now();
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    if (this.frozen) return { cancel: () => undefined };
    return this.clock.schedule(callback, delayMs, this);
  }

  /** Cancels this scope's timers and ignores new ones. */
  freeze(): void {
    this.frozen = true;
    this.clock.cancelScope(this);
  }
}
