import type { Logger } from 'pino';
import { bySubscription, type Lease } from '../engine/leases.js';
import type { Sender } from '../engine/sender.js';
import type { SubscriptionRef } from '../engine/types.js';

export interface InFlightSendsDeps {
  sender: Pick<Sender, 'deliver'>;
  logger: Logger;
  /** The worker's shutdown: sends it aborts are given back, not counted as failures. */
  shutdown: AbortSignal;
  /** A send whose outcome could not be recorded (a database failure). */
  failed(what: string, error: unknown): void;
  /**
   * Deliveries may be due that the sender loop does not know of: a stuck send's subscription may be
   * claimed again, or a recovery made a backlog due. Claim now rather than at the next poll.
   */
  wakeSender(): void;
}

export interface InFlightSendsOptions {
  /** Lease places: leases whose sends hold one (`maxLeasesInFlight`). */
  places: number;
  /** After this long a send is stuck and gives its lease's place back (`stuckSendMs`). */
  stuckSendMs: number;
}

/** A send to one subscription's destination, and what stop() and the stuck bookkeeping need of it. */
interface GroupSend {
  done: Promise<void>;
  markStuck(): void;
}

/**
 * The worker's sends in flight, whether the sender claimed their leases or the router handed them
 * over. A lease holds one of the `places` until each of its subscriptions' sends ended, or until
 * `stuckSendMs`: the sends still running then are stuck, give the place back, and keep their
 * subscription out of this worker's claims and hand-offs until they end. So a destination that
 * hangs delays its own deliveries only, not those of every subscription that shared its leases.
 */
export class InFlightSends {
  /** One per lease until its sends ended or got stuck: the `places` budget. */
  private readonly placesTaken = new Set<Promise<void>>();
  /** Every send not ended yet, stuck ones included (what `drain` waits for). */
  private readonly sends = new Set<Promise<void>>();
  private readonly stuck = new StuckSubscriptions();

  constructor(
    private readonly deps: InFlightSendsDeps,
    private readonly options: InFlightSendsOptions,
  ) {}

  hasRoom(): boolean {
    return this.placesTaken.size < this.options.places;
  }

  /** Resolves when a place may have come free. */
  async someEnded(): Promise<void> {
    await Promise.race(this.placesTaken);
  }

  /** Subscriptions with a send stuck at their destination: left out of claims and hand-offs. */
  stuckSubscriptions(): SubscriptionRef[] {
    return this.stuck.refs();
  }

  /** Sends the lease, one send per subscription, holding a place as described above. */
  start(lease: Lease): void {
    const groups = [...bySubscription(lease.deliveries)].map(([key, deliveries]) => this.sendGroup(key, { ...lease, deliveries }));
    let stuckTimer: NodeJS.Timeout | undefined;
    const place: Promise<void> = new Promise<void>((resolve) => {
      stuckTimer = setTimeout(() => {
        for (const group of groups) group.markStuck();
        resolve();
      }, this.options.stuckSendMs);
      void Promise.all(groups.map((group) => group.done)).then(() => resolve());
    }).finally(() => {
      clearTimeout(stuckTimer);
      this.placesTaken.delete(place);
    });
    this.placesTaken.add(place);
  }

  /** Waits for every send, stuck ones included (stop: no new ones start by then). */
  async drain(): Promise<void> {
    while (this.sends.size > 0) await Promise.all(this.sends);
  }

  private sendGroup(key: string, lease: Lease): GroupSend {
    const first = lease.deliveries[0] as Lease['deliveries'][number];
    const ref: SubscriptionRef = { projectKey: first.projectKey, subscriptionId: first.subscriptionId };
    const started = performance.now();
    let ended = false;
    let isStuck = false;
    const done: Promise<void> = this.deps.sender
      .deliver(lease, this.deps.shutdown)
      .then((result) => {
        this.deps.logger.debug({ ...result, ms: Math.round(performance.now() - started) }, 'lease delivered');
        if (result.madeDue > 0) this.deps.wakeSender();
      })
      .catch((error: unknown) => this.deps.failed('delivering', error))
      .finally(() => {
        ended = true;
        this.sends.delete(done);
        if (!isStuck) return;
        this.stuck.ended(key);
        this.deps.wakeSender();
      });
    this.sends.add(done);
    const markStuck = (): void => {
      if (ended || isStuck) return;
      isStuck = true;
      this.stuck.started(key, ref);
      this.deps.logger.warn({ ...ref, ms: this.options.stuckSendMs }, 'send stuck at the destination');
    };
    return { done, markStuck };
  }
}

/** Stuck sends counted per subscription (`project\0subscription`, as `bySubscription` keys them). */
class StuckSubscriptions {
  private readonly entries = new Map<string, { ref: SubscriptionRef; count: number }>();

  started(key: string, ref: SubscriptionRef): void {
    const entry = this.entries.get(key);
    if (entry !== undefined) entry.count++;
    else this.entries.set(key, { ref, count: 1 });
  }

  ended(key: string): void {
    const entry = this.entries.get(key);
    if (entry !== undefined && --entry.count === 0) this.entries.delete(key);
  }

  refs(): SubscriptionRef[] {
    return [...this.entries.values()].map((entry) => entry.ref);
  }
}
