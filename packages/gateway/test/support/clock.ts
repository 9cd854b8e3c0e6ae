import type { Clock } from '@herald/model';

/** A clock tests move by hand: token expiry, caches and windows without waiting. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date | string = '2025-01-01T00:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(milliseconds: number): void {
    this.current += milliseconds;
  }
}
