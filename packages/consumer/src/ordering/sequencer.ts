import type { Clock, TimerHandle } from '../clock.js';
import type { PositionLane, StreamPositions } from '../dedup/dedup-store.js';
import type { AnyDeliveryPayload } from '../delivery.js';
import type { Logger } from '../logger.js';
import type { GapNotice } from './gap-notice.js';
import { IdleLanes, type IdleLane, type IdleQueue } from './idle-lanes.js';
import { isNextInLane, positionValueOf } from './order-rules.js';
import { PredecessorWindow } from './predecessor-window.js';

/** What the sequencer orders: one delivery of one resource stream (its claim is on its way or answered). */
export interface SequencedItem {
  readonly key: string;
  readonly stream: string;
  readonly lane: PositionLane;
  readonly ordinal: number;
  readonly payload: AnyDeliveryPayload;
  /**
   * The stream's stored position when its claim reported it: the delivery is behind it (another
   * instance moved past), or right after it (its predecessor was processed: it is next).
   */
  readonly storedOrdinal?: number | undefined;
}

/**
 * How an item leaves the sequencer; the resource is locked until it is `finished` in every case
 * (one resource's handlers never run concurrently in one instance, late ones included):
 * - `next`: it is the next of its resource;
 * - `gap`: released past a missing predecessor after `maxWaitMs`;
 * - `late`: at or behind the lane's released position (`position`, an ordinal), here or as its
 *   claim found it stored: a duplicate or a late arrival, which the claim tells apart (a duplicate
 *   is acknowledged, a late one handled).
 */
export type Release = { readonly kind: 'next' } | { readonly kind: 'late'; readonly position: number } | { readonly kind: 'gap'; readonly gap: GapNotice };

export type RejectReason = 'buffer-full' | 'store-unavailable' | 'closing';

/** How an item ended, as far as ordering cares. */
export interface FinishReport {
  /** It was processed (here or elsewhere): the position moves to it. */
  readonly advanced: boolean;
  /**
   * It was not done (its handler failed, or it was deferred: busy, store unavailable) and the
   * source redelivers it after this long. When it held its resource, its successors wait for it
   * until then plus a full `maxWaitMs`.
   */
  readonly retryAfterMs?: number;
}

export interface SequencerDeps {
  readonly clock: Clock;
  readonly logger: Logger;
  /** Batched position reads (the store's `readPositions`). */
  readonly readPositions: (stream: string) => Promise<StreamPositions>;
  readonly release: (item: SequencedItem, how: Release) => void;
  readonly reject: (item: SequencedItem, reason: RejectReason) => void;
  readonly observe: {
    bufferWait(lane: PositionLane, seconds: number): void;
    gap(lane: PositionLane, reason: GapNotice['reason']): void;
  };
}

export interface SequencerOptions {
  readonly maxWaitMs: number;
  /** How much longer than `maxWaitMs` a wait may be stretched by a source's backlog. */
  readonly maxBacklogWaitMs: number;
  readonly maxBufferedPerResource: number;
  readonly maxBuffered: number;
  readonly unknownStart: 'hold' | 'wait' | 'immediate';
  /**
   * Is the messages lane of this resource type filtered (§2.4 MessageSubscription `types`)? Its
   * sequenceNumber gaps are then expected: a delivery that is not `position + 1` is held briefly
   * (see predecessor-window.ts), not for `maxWaitMs`, and released without a gap notice.
   */
  readonly filteredMessages: (resourceTypeId: string) => boolean;
  /** Bounds of the brief hold of deliveries whose predecessor is unknown. */
  readonly minHoldMs: number;
  readonly maxHoldMs: number;
  readonly minHoldArrivals: number;
  readonly positionRefreshMs: number;
  readonly positionCacheSize: number;
  /** On a position read failure: proceed as if nothing were stored (true) or reject (false). */
  readonly failOpen: boolean;
}

/**
 * A delivery waiting for its predecessor. Made by `new`, not as an object literal: V8 may decide
 * to allocate a literal's objects in the old generation when many survive a young collection
 * (see parse-delivery.ts), and waiting deliveries live close to that threshold.
 */
class Buffered {
  /** Held briefly, and still in the sequencer's queue of holds (whose timer ends it; see `releaseDueHolds`). */
  queued = false;

  constructor(
    readonly item: SequencedItem,
    /** Its resource's lane (what a queued hold pumps when it ends). */
    readonly lane: ResourceLane,
    readonly bufferedAt: number,
    /** The sequencer's arrival count when it arrived (holds end by arrivals as well as by time). */
    readonly arrival: number,
  ) {}
}

const LANES: readonly PositionLane[] = ['m', 'c'];
const NEXT: Release = Object.freeze({ kind: 'next' });

/**
 * At most this many idle entries whose retry window is still open are moved to the back of the
 * cache per eviction instead of being dropped: a bounded cost per eviction, and the cache never
 * exceeds `positionCacheSize` (only a cache mostly made of open windows loses one).
 */
const MAX_KEPT_PER_EVICTION = 4;

/**
 * Idle lanes of type-filtered resources kept (the most recently active), apart from the position
 * cache. Such a lane's position needs no cache: its resource's next delivery is claimed anyway, and
 * the claim reports a stored position that is the delivery's predecessor (it is then next, see
 * `takeStoredPosition`) or past it (late). What memory adds is only for the resources just seen: a
 * next delivery released without waiting for its claim, and a late predecessor growing the hold
 * (`noteLateAfterHold`). Kept in the large cache, a stream of mostly new resources (a filtered
 * subscription has about one per delivery or two) kept every lane alive long enough for V8 to move
 * it to the old generation, and collecting them was most of what ordering cost such a stream
 * (pipeline bench, docs/benchmarks.md, issue 24).
 */
const RECENT_FILTERED_LANES = 256;

/**
 * One resource stream's ordering state, kept (as an idle entry of the position cache) after its
 * deliveries are done: its positions, its `waitFrom` (a delivery that failed or was deferred as
 * the resource's last one is redelivered after its retry delay, and a successor arriving meanwhile
 * must wait for it; see `finished`) and its last hold release. The same object serves again when
 * the resource's next delivery comes: a stream of new resources made a lane, an idle entry and
 * then a lane again per resource, and their map updates, the largest part of ordering's cost.
 */
class ResourceLane implements IdleLane {
  ready = false;
  /** Items that arrived while the positions were loading (made only then). */
  pending: SequencedItem[] | undefined;
  positions: { m?: number; c?: number } = {};
  readonly buffers: Record<PositionLane, Buffered[]> = { m: [], c: [] };
  /** The item holding the resource (handlers of one resource never run concurrently). */
  running: SequencedItem | undefined;
  /** Deadlines count from here at the earliest (moved to when a failed or deferred head is due again). */
  waitFrom = 0;
  refreshedAt = 0;
  /**
   * The positions were just read from the store (first read or refresh, not a failed one), and
   * nothing arrived since: only then does an absent position mean "nothing stored" to
   * `unknownStart: 'immediate'`. A cached one (of an idle or active lane) may be older than what
   * another instance has stored since.
   */
  positionsJustRead = false;
  /**
   * The store's positions were read at least once. A resource first seen in a filtered lane is
   * not read (see `placesUnread`): until it is, an absent position means "not read", and a
   * delivery that needs to know (a change, with its exact predecessor) waits for a read.
   */
  positionsRead = false;
  refreshing = false;
  /**
   * The resource's latest release at the end of a brief hold (fields, not an object per release):
   * a predecessor arriving after it shows how late one can be. `heldTo` is undefined without one;
   * `heldFrom` is the lane's position before it (exclusive lower end of what it was released past).
   */
  heldLane: PositionLane = 'm';
  heldFrom: number | undefined;
  heldTo: number | undefined;
  heldBufferedAt = 0;
  heldArrival = 0;
  timer: TimerHandle | undefined;
  timerDueAt = Number.POSITIVE_INFINITY;
  /** While idle: the sequencer's queue it waits in to be evicted (see `retireIfIdle`), and its ticket there. */
  idleIn: IdleQueue | undefined;
  idleTicket = 0;

  constructor(
    readonly stream: string,
    /** Is its messages lane type-filtered (§2.4 MessageSubscription `types`)? Its resource type decides, once. */
    readonly filtered: boolean,
  ) {}

  bufferedCount(): number {
    return this.buffers.m.length + this.buffers.c.length;
  }

  isIdle(): boolean {
    return this.ready && this.running === undefined && this.pending === undefined && this.bufferedCount() === 0;
  }

  raise(lane: PositionLane, ordinal: number): void {
    const current = this.positions[lane];
    if (current === undefined || ordinal > current) this.positions[lane] = ordinal;
  }
}

/**
 * Releases deliveries per resource in §6.2 order, parallel across resources. Early arrivals wait
 * in a bounded buffer for up to `maxWaitMs`; then the lane is released in order with a gap notice.
 * Positions come from the store (shared by all consumer instances) and are cached per resource;
 * a lane with waiting items re-reads them every `positionRefreshMs` and before declaring a gap,
 * because another instance may have released the missing predecessor.
 */
export class Sequencer {
  /**
   * Resources with deliveries in flight (loading, buffered or running), and idle ones whose
   * positions are cached: at most `positionCacheSize` of those, the least recently active evicted
   * first (their positions are read again when needed): a stream of new resources would otherwise
   * turn them into steady growth.
   */
  private readonly lanes = new Map<string, ResourceLane>();
  /** Idle lanes whose positions are cached (`positionCacheSize`), least recently active evicted first. */
  private readonly cached: IdleLanes<ResourceLane>;
  /** Idle lanes of type-filtered resources, kept only briefly (see RECENT_FILTERED_LANES). */
  private readonly recentFiltered: IdleLanes<ResourceLane>;
  private totalBuffered = 0;
  private closed = false;
  /** When a source last reported more waiting in its queue. */
  private backlogSeenAt = Number.NEGATIVE_INFINITY;
  /** Deliveries submitted so far: the arrival order holds are measured in. */
  private arrivals = 0;
  /** Held deliveries in arrival order, to release them once enough later ones arrived. */
  private readonly holds: Buffered[] = [];
  private holdsHead = 0;
  /** One timer for all brief holds (their deadlines come in arrival order), instead of one per resource. */
  private holdTimer: TimerHandle | undefined;
  private holdTimerDueAt = Number.POSITIVE_INFINITY;
  private readonly window: PredecessorWindow;
  /** `filteredMessages` per resource type, asked once. */
  private readonly filteredTypes = new Map<string, boolean>();
  /**
   * The clock as read when the current call into the sequencer began (a delivery, a finish, a
   * claim's answer, a timer, a read's answer; see `readClock`): one read per call instead of one
   * per step. A clock read cost as much as placing a delivery on a host whose clock source makes
   * `Date.now()` a system call (about 0.25 µs on the kvm-clock host of the issue-24 benchmarks).
   */
  private now: number;

  constructor(
    private readonly deps: SequencerDeps,
    private readonly options: SequencerOptions,
  ) {
    this.now = deps.clock.now();
    this.window = new PredecessorWindow({ minHoldMs: options.minHoldMs, maxHoldMs: options.maxHoldMs, minArrivals: options.minHoldArrivals }, this.now);
    const forget = (lane: ResourceLane): void => void this.lanes.delete(lane.stream);
    this.cached = new IdleLanes<ResourceLane>({
      capacity: options.positionCacheSize,
      drop: forget,
      // Rather than forgetting that its successors must wait for a failed or deferred head.
      spare: (lane) => lane.waitFrom > this.now,
      maxKeptPerEviction: MAX_KEPT_PER_EVICTION,
    });
    this.recentFiltered = new IdleLanes<ResourceLane>({ capacity: Math.min(options.positionCacheSize, RECENT_FILTERED_LANES), drop: forget });
  }

  get bufferedCount(): number {
    return this.totalBuffered;
  }

  submit(item: SequencedItem): void {
    if (this.closed) return this.deps.reject(item, 'closing');
    this.readClock();
    this.arrivals++;
    if (this.holdsHead < this.holds.length) this.releaseDueHolds();
    let lane = this.lanes.get(item.stream);
    if (lane === undefined) {
      lane = new ResourceLane(item.stream, this.filteredLaneOf(item));
      this.lanes.set(item.stream, lane);
      if (this.placesUnread(lane, item)) return this.startUnread(lane, item);
      lane.pending = [item];
      this.load(lane);
      return;
    }
    if (lane.idleIn !== undefined) this.wake(lane);
    if (!lane.ready) {
      (lane.pending ??= []).push(item);
      return;
    }
    lane.positionsJustRead = false;
    this.place(lane, item);
    this.afterChange(lane);
  }

  /** A source has more waiting: waits do not count until it stops saying so (bounded, see options). */
  noteBacklog(): void {
    this.backlogSeenAt = this.deps.clock.now();
  }

  /**
   * When the wait of a lane whose oldest delivery was buffered at `oldestAt` runs out: `maxWaitMs`
   * after the latest of that, the time the resource's last failed or deferred head is redelivered,
   * and the last backlog report (but a backlog stretches it by `maxBacklogWaitMs` at most).
   */
  private deadlineOf(lane: ResourceLane, oldestAt: number): number {
    const backlogUntil = Math.min(this.backlogSeenAt, oldestAt + this.options.maxBacklogWaitMs);
    return Math.max(oldestAt, lane.waitFrom, backlogUntil) + this.options.maxWaitMs;
  }

  /** A released item is done; moves the position and releases what may follow. */
  finished(item: SequencedItem, report: FinishReport): void {
    const lane = this.lanes.get(item.stream);
    if (lane === undefined) return;
    this.readClock();
    if (lane.idleIn !== undefined) this.wake(lane);
    if (lane.running === item) {
      lane.running = undefined;
      // The head comes back when the consumer asked the source to redeliver it, possibly later
      // than maxWaitMs (a retry backoff, a lease held elsewhere): released past before, it would
      // come back late. A late one is behind already: nothing waits for it.
      if (report.retryAfterMs !== undefined && !this.isBehind(lane, item)) {
        lane.waitFrom = Math.max(lane.waitFrom, this.now + report.retryAfterMs);
      }
    }
    if (report.advanced) lane.raise(item.lane, item.ordinal);
    this.pump(lane);
    this.afterChange(lane);
  }

  /**
   * The item's claim reported the stream's stored position (`storedOrdinal`). At or past it:
   * another instance processed a later delivery, and the waiting item is released as late. Right
   * before it: its predecessor was processed, and the waiting item is next (a filtered lane's
   * resource whose lane was forgotten, see `retireIfIdle`, learns it this way). The lane takes the
   * position over either way.
   */
  takeStoredPosition(item: SequencedItem): void {
    const lane = this.lanes.get(item.stream);
    // Still loading: placing it raises the position (see place).
    if (lane === undefined || !lane.ready || item.storedOrdinal === undefined) return;
    lane.raise(item.lane, item.storedOrdinal);
    if (lane.idleIn !== undefined) return;
    this.readClock();
    this.pump(lane);
    this.afterChange(lane);
  }

  /** Rejects everything waiting (`closing`) and all that comes later; returns how many were waiting. */
  close(): number {
    this.closed = true;
    return this.returnWaiting();
  }

  /**
   * Rejects (`closing`) what waits for a predecessor or for its positions, so its source hands it
   * back to the transport; running deliveries and later arrivals are not affected. A source that
   * stops receiving calls it (through the consumer): the predecessor can no longer arrive here,
   * and waiting out `maxWaitMs` would release the delivery past a gap and make the predecessor
   * late wherever it is delivered next.
   */
  returnWaiting(): number {
    this.readClock();
    let rejected = 0;
    for (const lane of [...this.lanes.values()]) {
      if (lane.idleIn !== undefined) continue;
      lane.timer?.cancel();
      lane.timer = undefined;
      lane.timerDueAt = Number.POSITIVE_INFINITY;
      const waiting = [...(lane.pending ?? []), ...lane.buffers.m.map((b) => b.item), ...lane.buffers.c.map((b) => b.item)];
      lane.pending = undefined;
      lane.buffers.m = [];
      lane.buffers.c = [];
      for (const item of waiting) {
        rejected++;
        this.deps.reject(item, 'closing');
      }
      if (!this.closed) this.retireIfIdle(lane);
    }
    this.totalBuffered = 0;
    for (let index = this.holdsHead; index < this.holds.length; index++) (this.holds[index] as Buffered).queued = false;
    this.holds.length = 0;
    this.holdsHead = 0;
    this.holdTimer?.cancel();
    this.holdTimer = undefined;
    this.holdTimerDueAt = Number.POSITIVE_INFINITY;
    return rejected;
  }

  /** An idle lane whose resource has a delivery again: out of the eviction queue (its entry there is skipped). */
  private wake(lane: ResourceLane): void {
    lane.idleIn?.remove(lane);
    // As a fresh lane: a cached absence may be older than what another instance stored since.
    lane.positionsJustRead = false;
  }

  /** Makes a lane with nothing in flight an idle entry of the position cache (or of the recent filtered lanes). */
  private retireIfIdle(lane: ResourceLane): void {
    if (lane.idleIn !== undefined || !lane.isIdle() || lane.refreshing || this.lanes.get(lane.stream) !== lane) return;
    lane.timer?.cancel();
    lane.timer = undefined;
    lane.timerDueAt = Number.POSITIVE_INFINITY;
    // waitFrom stays with it: a lane forgotten right after its failed or deferred head lost it, so a
    // successor arriving before the retry was released past the gap after maxWaitMs alone, and the
    // retried delivery came back late.
    (this.claimTells(lane) ? this.recentFiltered : this.cached).add(lane);
  }

  /**
   * Does the next claim of this idle lane's resource tell all its cached state would? Yes for a
   * filtered messages lane placed without a position read (`placesUnread`), with no changes lane
   * and no failed or deferred head due back: the claim reports a stored position that is the
   * delivery's predecessor or past it (see RECENT_FILTERED_LANES).
   */
  private claimTells(lane: ResourceLane): boolean {
    return this.options.unknownStart === 'hold' && lane.filtered && lane.positions.c === undefined && lane.waitFrom <= this.now;
  }

  private load(lane: ResourceLane): void {
    this.deps.readPositions(lane.stream).then(
      (positions) => {
        this.readClock();
        lane.positions = { ...positions };
        this.becomeReady(lane);
      },
      (error: unknown) => {
        this.readClock();
        if (this.options.failOpen) {
          this.deps.logger.warn({ err: error, stream: lane.stream }, 'position read failed; ordering from memory only (failOpen)');
          lane.positions = {};
          this.becomeReady(lane);
          return;
        }
        this.deps.logger.warn({ err: error, stream: lane.stream }, 'position read failed; deliveries deferred');
        this.lanes.delete(lane.stream);
        const pending = lane.pending ?? [];
        lane.pending = undefined;
        for (const item of pending) this.deps.reject(item, 'store-unavailable');
      },
    );
  }

  /**
   * Does a resource first seen with this delivery skip the position read? Yes for a filtered
   * lane's message when unknown starts are held: whatever is stored, it is either the stream's
   * start (sequenceNumber 1, released at once) or held briefly — all the read could add is that it
   * is exactly the next one, while costing every new resource a round trip before anything
   * happens. A stored position past it still shows: the claim reports it (late), and the lane
   * takes it over when the delivery is done.
   */
  private placesUnread(lane: ResourceLane, item: SequencedItem): boolean {
    return this.options.unknownStart === 'hold' && lane.filtered && item.payload.notificationType === 'Message';
  }

  /** Is the messages lane of this item's resource type-filtered (asked once per resource type)? */
  private filteredLaneOf(item: SequencedItem): boolean {
    return item.payload.notificationType !== 'Event' && this.isFiltered(item.payload.resource.typeId);
  }

  /** A new resource's lane, ready without a read (see `placesUnread`): its first delivery is placed at once. */
  private startUnread(lane: ResourceLane, item: SequencedItem): void {
    lane.ready = true;
    // As fresh as a read for the refresh schedule: nothing to re-read during a brief hold.
    lane.refreshedAt = this.now;
    this.place(lane, item);
    this.afterChange(lane);
  }

  private becomeReady(lane: ResourceLane): void {
    lane.ready = true;
    lane.positionsRead = true;
    lane.positionsJustRead = true;
    lane.refreshedAt = this.now;
    const pending = lane.pending ?? [];
    lane.pending = undefined;
    for (const item of pending) this.place(lane, item);
    this.afterChange(lane);
  }

  private isNext(lane: ResourceLane, item: SequencedItem): boolean {
    const position = lane.positions[item.lane];
    // Not on a cached absence: another instance may have released m1, m2 since, and m4 would
    // run before m3 (and m3 come late). Such an item waits for a refresh (see place).
    // Nor while a failed or deferred delivery of the resource may still come back (its retry time
    // plus maxWaitMs): nothing stored yet only because it failed, it would be skipped and come late.
    if (position === undefined && this.options.unknownStart === 'immediate' && lane.positionsJustRead && lane.waitFrom + this.options.maxWaitMs <= this.now) {
      return true;
    }
    return isNextInLane(position, item.payload);
  }

  /** Does a waiting delivery stand on a cached absent position that `unknownStart: 'immediate'` must read again first? */
  private needsStartCheck(lane: ResourceLane): boolean {
    if (this.options.unknownStart !== 'immediate' || lane.positionsJustRead) return false;
    return (lane.buffers.m.length > 0 && lane.positions.m === undefined) || (lane.buffers.c.length > 0 && lane.positions.c === undefined);
  }

  /** Is it the next of its lane once the running delivery (if in the same lane) is done? */
  private isAwaited(lane: ResourceLane, item: SequencedItem): boolean {
    const running = lane.running;
    if (running !== undefined && running.lane === item.lane) return isNextInLane(running.ordinal, item.payload);
    return this.isNext(lane, item);
  }

  /** At or behind its lane's released position: a duplicate or a late arrival. */
  private isBehind(lane: ResourceLane, item: SequencedItem): boolean {
    const position = lane.positions[item.lane];
    return position !== undefined && item.ordinal <= position;
  }

  private place(lane: ResourceLane, item: SequencedItem): void {
    if (item.storedOrdinal !== undefined) lane.raise(item.lane, item.storedOrdinal);
    const behind = this.isBehind(lane, item);
    if (behind) this.noteLateAfterHold(lane, item);
    if (lane.running === undefined) {
      if (behind) return this.releaseLate(lane, item);
      if (this.isNext(lane, item)) {
        lane.running = item;
        return this.deps.release(item, NEXT);
      }
    }
    const buffer = lane.buffers[item.lane];
    const full = this.totalBuffered >= this.options.maxBuffered || lane.bufferedCount() >= this.options.maxBufferedPerResource;
    // The delivery the lane waits for is never turned away: deferred, it could come back after its
    // successors were released past it, and come late. (A lane awaits one delivery, so
    // the caps are exceeded by little.)
    if (full && !this.isAwaited(lane, item)) {
      const highest = buffer[buffer.length - 1];
      if (highest === undefined || highest.item.ordinal <= item.ordinal) return this.deps.reject(item, 'buffer-full');
      // Lower than something its lane holds: it is needed first. Turned away, it came back (every
      // bufferFullMs) to the same full buffer until the gap release, then came late.
      // The highest waiting one goes back to its source instead (it is redelivered, and released
      // after this one): one out, one in, so both caps hold.
      buffer.pop();
      this.totalBuffered--;
      this.deps.reject(highest.item, 'buffer-full');
    }
    const now = this.now;
    // Sorted by ordinal; buffers are short and arrivals mostly near the end.
    let index = buffer.length;
    while (index > 0 && (buffer[index - 1] as Buffered).item.ordinal > item.ordinal) index--;
    const successor = buffer[index];
    // It arrived after a successor that was already waiting: how late is what holds are made of.
    if (successor !== undefined && !behind) this.window.sample(now - successor.bufferedAt, this.arrivals - successor.arrival, now);
    const buffered = new Buffered(item, lane, now, this.arrivals);
    // Mostly appended: `splice` would allocate the (empty) array of removed items for every delivery.
    if (index === buffer.length) buffer.push(buffered);
    else buffer.splice(index, 0, buffered);
    this.totalBuffered++;
    // A late one waits only for the running delivery of its resource (see pump).
    const briefly = !behind && this.holdsBriefly(lane, item);
    if (briefly) this.queueHold(buffered);
    // A cached position may be old (another instance moved on): check before waiting long.
    const stale = !briefly && (now - lane.refreshedAt >= this.options.positionRefreshMs || this.needsStartCheck(lane));
    if (stale || !this.knowsEnoughFor(lane, item)) this.refresh(lane);
  }

  /** Releases what is behind or next, else, if a lane waited long enough, its head past the gap or hold. */
  private pump(lane: ResourceLane): void {
    if (!lane.ready || lane.running !== undefined) return;
    const now = this.now;
    for (const laneId of LANES) {
      const head = lane.buffers[laneId][0];
      if (head !== undefined && this.isBehind(lane, head.item)) {
        lane.buffers[laneId].shift();
        this.totalBuffered--;
        this.deps.observe.bufferWait(laneId, (now - head.bufferedAt) / 1000);
        return this.releaseLate(lane, head.item);
      }
    }
    for (const laneId of LANES) {
      const head = lane.buffers[laneId][0];
      if (head !== undefined && this.isNext(lane, head.item)) {
        lane.running = head.item;
        this.release(lane, laneId, now, NEXT);
        return;
      }
    }
    const held = this.heldLaneDue(lane, now);
    if (held !== undefined) return this.releaseHeld(lane, held, now);
    const expired = this.mostOverdueLane(lane, now);
    if (expired === undefined) return;
    if (lane.refreshedAt < expired.deadline) {
      // Before skipping anything, make sure no other instance released the missing one.
      this.refresh(lane);
      return;
    }
    const head = lane.buffers[expired.laneId][0] as Buffered;
    const lastReleasedOrdinal = lane.positions[expired.laneId];
    const gap: GapNotice = {
      reason: lastReleasedOrdinal === undefined ? 'unknown-start' : 'timeout',
      lane: expired.laneId === 'm' ? 'messages' : 'changes',
      lastReleased: lastReleasedOrdinal === undefined ? undefined : positionValueOf(expired.laneId, lastReleasedOrdinal),
      released: positionValueOf(expired.laneId, head.item.ordinal),
      waitedMs: now - expired.oldestAt,
    };
    this.deps.observe.gap(expired.laneId, gap.reason);
    this.deps.logger.warn({ stream: lane.stream, gap }, 'releasing past a gap: the missing deliveries are skipped');
    lane.running = head.item;
    this.release(lane, expired.laneId, now, { kind: 'gap', gap });
  }

  /**
   * Is this waiting delivery's predecessor unknown, so that it is held only briefly? Yes for the
   * first delivery of a resource with nothing stored (`unknownStart: 'hold'`: the resource may
   * predate the subscription) and in a filtered messages lane (its gaps are by design). A change
   * names its predecessor exactly (ResourceUpdated.oldVersion; ChangeSubscriptions have no type
   * filter), as does a message of an unfiltered lane (sequenceNumber − 1): those wait `maxWaitMs`.
   */
  private holdsBriefly(lane: ResourceLane, item: SequencedItem): boolean {
    if (lane.positions[item.lane] === undefined) return this.options.unknownStart === 'hold' && this.knowsEnoughFor(lane, item);
    return lane.filtered && item.payload.notificationType === 'Message';
  }

  /** Are the lane's positions known well enough to place this item: read, or not needed (see `placesUnread`)? */
  private knowsEnoughFor(lane: ResourceLane, item: SequencedItem): boolean {
    return lane.positionsRead || this.placesUnread(lane, item);
  }

  private isFiltered(resourceTypeId: string): boolean {
    let filtered = this.filteredTypes.get(resourceTypeId);
    if (filtered === undefined) {
      filtered = this.options.filteredMessages(resourceTypeId);
      this.filteredTypes.set(resourceTypeId, filtered);
    }
    return filtered;
  }

  /** Has this held head waited long enough: enough later arrivals, or its time (from a failed head's return at the earliest)? */
  private holdOver(lane: ResourceLane, head: Buffered, now: number): boolean {
    if (now >= Math.max(head.bufferedAt, lane.waitFrom) + this.window.holdMs(now)) return true;
    // Arrivals count only when nothing of the resource is due back (a failed or deferred head).
    return lane.waitFrom <= head.bufferedAt && this.arrivals - head.arrival >= this.window.arrivalWindow(now);
  }

  /** The lane whose held head may go, if any. */
  private heldLaneDue(lane: ResourceLane, now: number): PositionLane | undefined {
    for (const laneId of LANES) {
      const head = lane.buffers[laneId][0];
      if (head !== undefined && this.holdsBriefly(lane, head.item) && this.holdOver(lane, head, now)) return laneId;
    }
    return undefined;
  }

  /**
   * Releases a held head: nothing is known to be missing, so no gap notice and no position re-read
   * (the claim still checks the stored position, so one another instance moved past is late).
   */
  private releaseHeld(lane: ResourceLane, laneId: PositionLane, now: number): void {
    const head = lane.buffers[laneId][0] as Buffered;
    lane.heldLane = laneId;
    lane.heldFrom = lane.positions[laneId];
    lane.heldTo = head.item.ordinal;
    lane.heldBufferedAt = head.bufferedAt;
    lane.heldArrival = head.arrival;
    lane.running = head.item;
    this.release(lane, laneId, now, NEXT);
  }

  /**
   * A delivery arrives behind the position. If a hold released a successor past it, it was not
   * filtered out but late: the hold grows by what this one shows (it is handed over all the same,
   * marked late; the consumer logs it once the claim shows it is no duplicate).
   */
  private noteLateAfterHold(lane: ResourceLane, item: SequencedItem): void {
    const to = lane.heldTo;
    if (to === undefined || lane.heldLane !== item.lane || item.ordinal >= to || (lane.heldFrom !== undefined && item.ordinal <= lane.heldFrom)) return;
    const now = this.now;
    this.window.sample(now - lane.heldBufferedAt, this.arrivals - lane.heldArrival, now);
  }

  /** Hands over a delivery at or behind its lane's position, locking the resource like any other. */
  private releaseLate(lane: ResourceLane, item: SequencedItem): void {
    lane.running = item;
    this.deps.release(item, { kind: 'late', position: lane.positions[item.lane] as number });
  }

  /**
   * Queues a brief hold: the sequencer's one hold timer and every arrival check the queue's oldest
   * (see `releaseDueHolds`). A timer per held delivery, armed and then cancelled by the arrivals
   * that end nearly every hold of a busy stream, was a tenth of the ordering's cost on the filtered
   * bench stream.
   */
  private queueHold(buffered: Buffered): void {
    buffered.queued = true;
    this.holds.push(buffered);
    if (this.holdTimer === undefined) this.armHoldTimer();
  }

  /** Pumps the lanes of held deliveries that enough later arrivals, or their time, have passed. */
  private releaseDueHolds(): void {
    const now = this.now;
    const window = this.window.arrivalWindow(now);
    const holdMs = this.window.holdMs(now);
    while (this.holdsHead < this.holds.length) {
      const held = this.holds[this.holdsHead] as Buffered;
      if (this.arrivals - held.arrival < window && now < held.bufferedAt + holdMs) break;
      this.holdsHead++;
      held.queued = false;
      const lane = held.lane;
      if (this.lanes.get(lane.stream) !== lane || lane.buffers[held.item.lane][0] !== held) continue;
      // Out of the queue: if it cannot go now (its resource runs, a failed head is due back), its
      // lane's own timer takes over (see schedule).
      this.pump(lane);
      this.afterChange(lane);
    }
    if (this.holdsHead > 1_024 && this.holdsHead * 2 > this.holds.length) {
      this.holds.splice(0, this.holdsHead);
      this.holdsHead = 0;
    }
  }

  /** Arms the hold timer for the oldest queued hold's time, if it is not armed earlier already. */
  private armHoldTimer(): void {
    const oldest = this.holds[this.holdsHead];
    if (oldest === undefined || this.closed) return;
    const now = this.now;
    const dueAt = oldest.bufferedAt + this.window.holdMs(now);
    if (this.holdTimer !== undefined && this.holdTimerDueAt <= dueAt) return;
    this.holdTimer?.cancel();
    this.holdTimerDueAt = dueAt;
    this.holdTimer = this.deps.clock.setTimeout(() => this.onHoldTimer(), Math.max(0, dueAt - now));
  }

  private onHoldTimer(): void {
    this.holdTimer = undefined;
    this.holdTimerDueAt = Number.POSITIVE_INFINITY;
    if (this.closed) return;
    this.readClock();
    this.releaseDueHolds();
    this.armHoldTimer();
  }

  private release(lane: ResourceLane, laneId: PositionLane, now: number, how: Release): void {
    const buffered = lane.buffers[laneId].shift() as Buffered;
    this.totalBuffered--;
    this.deps.observe.bufferWait(laneId, (now - buffered.bufferedAt) / 1000);
    this.deps.release(buffered.item, how);
  }

  /** The lane whose wait expired earliest, if any did. */
  private mostOverdueLane(lane: ResourceLane, now: number): { laneId: PositionLane; deadline: number; oldestAt: number } | undefined {
    let result: { laneId: PositionLane; deadline: number; oldestAt: number } | undefined;
    for (const laneId of LANES) {
      const head = lane.buffers[laneId][0];
      if (head === undefined || this.holdsBriefly(lane, head.item)) continue;
      const oldestAt = this.oldestBufferedAt(lane, laneId);
      if (oldestAt === undefined) continue;
      const deadline = this.deadlineOf(lane, oldestAt);
      if (deadline <= now && (result === undefined || deadline < result.deadline)) result = { laneId, deadline, oldestAt };
    }
    return result;
  }

  private oldestBufferedAt(lane: ResourceLane, laneId: PositionLane): number | undefined {
    let oldest: number | undefined;
    for (const buffered of lane.buffers[laneId]) {
      if (oldest === undefined || buffered.bufferedAt < oldest) oldest = buffered.bufferedAt;
    }
    return oldest;
  }

  private refresh(lane: ResourceLane): void {
    if (lane.refreshing) return;
    lane.refreshing = true;
    const startedAt = this.now;
    this.deps.readPositions(lane.stream).then(
      (positions) => {
        this.readClock();
        if (positions.m !== undefined) lane.raise('m', positions.m);
        if (positions.c !== undefined) lane.raise('c', positions.c);
        // What waits now arrived before (or while) this read, like the deliveries that wait for
        // a lane's first read: an absent position is as fresh for them.
        lane.positionsJustRead = true;
        lane.positionsRead = true;
        this.refreshed(lane, startedAt);
      },
      (error: unknown) => {
        this.readClock();
        // Nothing better is known; the gap release that may follow claims through the store,
        // which fails closed on its own if the store is still away.
        this.deps.logger.warn({ err: error, stream: lane.stream }, 'position refresh failed');
        this.refreshed(lane, startedAt);
      },
    );
  }

  private refreshed(lane: ResourceLane, startedAt: number): void {
    lane.refreshing = false;
    lane.refreshedAt = startedAt;
    if (this.closed || this.lanes.get(lane.stream) !== lane) return;
    this.pump(lane);
    this.afterChange(lane);
  }

  /** Re-arms (or disarms) the lane's timer after anything changed in it; retires it once idle. */
  private afterChange(lane: ResourceLane): void {
    if (this.closed || this.lanes.get(lane.stream) !== lane) return;
    if (lane.timer !== undefined || lane.bufferedCount() > 0) this.schedule(lane);
    this.retireIfIdle(lane);
  }

  private schedule(lane: ResourceLane): void {
    let dueAt = Number.POSITIVE_INFINITY;
    // While positions are being re-read, the refresh's completion pumps and re-arms; a timer now
    // could only find the same overdue lane again.
    if (lane.ready && lane.bufferedCount() > 0 && !lane.refreshing) {
      // While a delivery of the resource runs, its end pumps the lane: only refreshes are timed.
      const idle = lane.running === undefined;
      let waitsLong = false;
      const holdMs = this.window.holdMs(this.now);
      for (const laneId of LANES) {
        const head = lane.buffers[laneId][0];
        if (head === undefined) continue;
        if (this.holdsBriefly(lane, head.item)) {
          // A queued hold ends by the sequencer's hold timer, unless its wait counts from a failed
          // or deferred head's return; a brief hold needs no refresh.
          if (idle && !(head.queued && lane.waitFrom <= head.bufferedAt)) dueAt = Math.min(dueAt, Math.max(head.bufferedAt, lane.waitFrom) + holdMs);
          continue;
        }
        waitsLong = true;
        const oldestAt = idle ? this.oldestBufferedAt(lane, laneId) : undefined;
        if (oldestAt !== undefined) dueAt = Math.min(dueAt, this.deadlineOf(lane, oldestAt));
      }
      if (waitsLong) dueAt = Math.min(dueAt, lane.refreshedAt + this.options.positionRefreshMs);
    }
    if (dueAt === lane.timerDueAt && lane.timer !== undefined) return;
    lane.timer?.cancel();
    lane.timer = undefined;
    lane.timerDueAt = dueAt;
    if (dueAt === Number.POSITIVE_INFINITY) return;
    const now = this.now;
    lane.timer = this.deps.clock.setTimeout(() => this.onTimer(lane), Math.max(0, dueAt - now));
  }

  private onTimer(lane: ResourceLane): void {
    lane.timer = undefined;
    lane.timerDueAt = Number.POSITIVE_INFINITY;
    if (this.closed || this.lanes.get(lane.stream) !== lane) return;
    this.readClock();
    const now = this.now;
    if (now - lane.refreshedAt >= this.options.positionRefreshMs && lane.bufferedCount() > 0) {
      this.refresh(lane);
      return;
    }
    this.pump(lane);
    this.afterChange(lane);
  }

  /** Reads the clock for the call into the sequencer that begins (see `now`). */
  private readClock(): void {
    this.now = this.deps.clock.now();
  }
}
