/*
 * How long a delivery whose predecessor is unknown is held before it is released (see the
 * README's *Ordering model*). A filtered message stream (§2.4 MessageSubscription `types`) has
 * sequenceNumber gaps by design, and a resource seen for the first time has nothing known before
 * it: neither can tell whether an earlier delivery is still on its way. Such a delivery is held
 * only while an out-of-order predecessor would plausibly still arrive, which is measured, not
 * configured: whenever a delivery arrives after a successor that was already waiting, how late it
 * was (in milliseconds and in arrivals) is a sample. The hold is released by whichever comes
 * first: twice the recent lateness in arrivals (a busy stream moves on within a few ms), or twice
 * the recent lateness in time (a quiet stream), each within fixed bounds. Samples decay, so one
 * outlier does not slow the stream for long.
 */

/** Lateness estimates halve every this many ms without larger samples. */
const HALF_LIFE_MS = 10_000;
/** Decay is recomputed at most this often (a Math.pow per arrival would show in the hot path). */
const DECAY_STEP_MS = 100;

export interface PredecessorWindowBounds {
  /** The time hold never goes below this (a quiet stream's predecessor may be a poll away). */
  readonly minHoldMs: number;
  /** …nor above this: bounded well under `maxWaitMs`. */
  readonly maxHoldMs: number;
  /** Arrivals that always pass before a hold ends early by count (the transport's usual disorder). */
  readonly minArrivals: number;
}

export class PredecessorWindow {
  private lateMs = 0;
  private lateArrivals = 0;
  private decayedAt: number;
  private holdMsValue: number;
  private arrivalsValue: number;

  constructor(
    private readonly bounds: PredecessorWindowBounds,
    now: number,
  ) {
    this.decayedAt = now;
    this.holdMsValue = bounds.minHoldMs;
    this.arrivalsValue = bounds.minArrivals;
  }

  /** A delivery arrived `lateMs` and `lateArrivals` after a successor of it. */
  sample(lateMs: number, lateArrivals: number, now: number): void {
    this.decay(now);
    if (lateMs <= this.lateMs && lateArrivals <= this.lateArrivals) return;
    this.lateMs = Math.max(this.lateMs, lateMs);
    this.lateArrivals = Math.max(this.lateArrivals, lateArrivals);
    this.derive();
  }

  /** How long (ms) a delivery with an unknown predecessor is held at most. */
  holdMs(now: number): number {
    this.decay(now);
    return this.holdMsValue;
  }

  /** After how many later arrivals such a delivery is released (if its hold has not ended first). */
  arrivalWindow(now: number): number {
    this.decay(now);
    return this.arrivalsValue;
  }

  private decay(now: number): void {
    const elapsed = now - this.decayedAt;
    if (elapsed < DECAY_STEP_MS) return;
    this.decayedAt = now;
    if (this.lateMs === 0 && this.lateArrivals === 0) return;
    const factor = 2 ** (-elapsed / HALF_LIFE_MS);
    this.lateMs *= factor;
    this.lateArrivals *= factor;
    this.derive();
  }

  private derive(): void {
    this.holdMsValue = Math.min(this.bounds.maxHoldMs, Math.max(this.bounds.minHoldMs, Math.ceil(2 * this.lateMs)));
    this.arrivalsValue = Math.max(this.bounds.minArrivals, Math.ceil(2 * this.lateArrivals));
  }
}
