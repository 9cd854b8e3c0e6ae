/** What an idle-lane queue needs of a lane: where it is queued, and with which ticket. */
export interface IdleLane {
  /** The queue the lane is idle in; undefined while it is active. */
  idleIn: IdleQueue | undefined;
  /** Its entry's ticket in that queue: an entry whose ticket is not the lane's current one is stale. */
  idleTicket: number;
}

/** A queue of idle lanes as a lane sees it: the lane can leave it. */
export interface IdleQueue {
  remove(lane: IdleLane): void;
}

export interface IdleLanesOptions<Lane extends IdleLane> {
  /** At most this many idle lanes are kept; the least recently active go first. */
  readonly capacity: number;
  /** Called for a lane the queue lets go (the sequencer forgets it). */
  readonly drop: (lane: Lane) => void;
  /** Spares a lane from eviction once more (moved to the back), at most `maxKeptPerEviction` per eviction. */
  readonly spare?: (lane: Lane) => boolean;
  readonly maxKeptPerEviction?: number;
}

/**
 * Idle lanes in the order they became idle, bounded. An idle lane that becomes active again is
 * only marked (`remove`): its entry stays and is skipped when reached (no search through the
 * queue), and entries of lanes active again are compacted away once they are most of it.
 */
export class IdleLanes<Lane extends IdleLane> implements IdleQueue {
  /**
   * Entries in queue order; a slot the head has passed is emptied, so that a lane let go is not
   * kept alive by the queue until it is compacted (up to a thousand lanes of a type-filtered
   * stream lived long enough for V8 to move them to the old generation).
   */
  private lanes: (Lane | undefined)[] = [];
  private tickets: number[] = [];
  private head = 0;
  private lastTicket = 0;
  private idle = 0;

  constructor(private readonly options: IdleLanesOptions<Lane>) {}

  get count(): number {
    return this.idle;
  }

  /** Queues a lane that became idle, and lets the oldest go beyond the capacity. */
  add(lane: Lane): void {
    this.enqueue(lane);
    this.idle++;
    if (this.idle > this.options.capacity) this.evict();
  }

  /** The lane is active again (or dropped): its entry is skipped from now on. */
  remove(lane: IdleLane): void {
    lane.idleIn = undefined;
    lane.idleTicket = 0;
    this.idle--;
  }

  private enqueue(lane: Lane): void {
    lane.idleIn = this;
    lane.idleTicket = ++this.lastTicket;
    this.lanes.push(lane);
    this.tickets.push(lane.idleTicket);
    if (this.lanes.length - this.head > 2 * this.idle + 1_024) this.compact();
  }

  private evict(): void {
    let kept = 0;
    const maxKept = this.options.maxKeptPerEviction ?? 0;
    while (this.idle > this.options.capacity && this.head < this.lanes.length) {
      const lane = this.lanes[this.head] as Lane;
      const ticket = this.tickets[this.head] as number;
      this.lanes[this.head] = undefined;
      this.head++;
      if (lane.idleIn !== this || lane.idleTicket !== ticket) continue;
      if (kept < maxKept && this.options.spare?.(lane) === true) {
        kept++;
        this.enqueue(lane);
        continue;
      }
      this.remove(lane);
      this.options.drop(lane);
    }
    if (this.head > 1_024 && this.head * 2 > this.lanes.length) this.compact();
  }

  /** Keeps only the current entries (a lane's latest ticket here), in order. */
  private compact(): void {
    const lanes: Lane[] = [];
    const tickets: number[] = [];
    for (let index = this.head; index < this.lanes.length; index++) {
      const lane = this.lanes[index] as Lane;
      const ticket = this.tickets[index] as number;
      if (lane.idleIn !== this || lane.idleTicket !== ticket) continue;
      lanes.push(lane);
      tickets.push(ticket);
    }
    this.lanes = lanes;
    this.tickets = tickets;
    this.head = 0;
  }
}
