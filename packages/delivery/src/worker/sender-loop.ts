import type { Lease } from '../engine/leases.js';
import type { Sender } from '../engine/sender.js';
import type { LoopWatch } from './health.js';
import type { InFlightSends } from './in-flight.js';
import type { WorkerLifecycle } from './lifecycle.js';
import type { WorkerSettings } from './settings.js';
import type { WorkerVitals } from './vitals.js';

export interface SenderLoopDeps {
  sender: Pick<Sender, 'claim'>;
  lifecycle: WorkerLifecycle;
  vitals: WorkerVitals;
  watch: LoopWatch;
  inFlight: InFlightSends;
}

/**
 * Step 3 of the data flow in a loop: while a lease place is free, claims due deliveries (retries
 * that came due, what other workers routed) and starts sending them; sleeps for the poll interval
 * when nothing is due, unless the router or a send that ended wakes it. On stop it waits for every
 * send, handed-over and stuck ones included.
 */
export class SenderLoop {
  constructor(
    private readonly deps: SenderLoopDeps,
    private readonly settings: WorkerSettings,
  ) {}

  async run(): Promise<void> {
    const { lifecycle, inFlight, watch } = this.deps;
    while (lifecycle.running) {
      if (!inFlight.hasRoom()) {
        // Sends are bounded by the send timeout and the driver's; a database that stopped
        // answering meanwhile stalls the router.
        watch.waitUnbounded();
        await inFlight.someEnded();
        continue;
      }
      const claimed = await this.claim();
      if (claimed === 'failed') await this.sleep(this.settings.errorBackoffMs);
      else if (claimed === undefined) await this.sleep(this.settings.senderPollIntervalMs);
      else inFlight.start(claimed);
    }
    // The router loop has stopped by now or stops next: nothing new starts.
    await inFlight.drain();
  }

  /** A lease's worth of due deliveries (none of the stuck subscriptions'), or why there is none. */
  private async claim(): Promise<Lease | undefined | 'failed'> {
    const { sender, vitals, watch, inFlight } = this.deps;
    try {
      watch.roundTrip();
      const lease = await sender.claim(inFlight.stuckSubscriptions());
      vitals.succeeded();
      return lease;
    } catch (error) {
      vitals.failed('claiming deliveries', error);
      return 'failed';
    }
  }

  private async sleep(ms: number): Promise<void> {
    this.deps.watch.sleep(ms);
    await this.deps.lifecycle.senderWaker.wait(ms);
  }
}
