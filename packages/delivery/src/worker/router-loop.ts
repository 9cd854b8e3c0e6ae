import type { Clock } from '@herald/model';
import type { HandOff, RouteResult, Router } from '../engine/router.js';
import type { LoopWatch } from './health.js';
import type { InFlightSends } from './in-flight.js';
import type { WorkerLifecycle } from './lifecycle.js';
import type { WorkerSettings } from './settings.js';
import type { WorkerVitals } from './vitals.js';
import type { OutboxSignal } from './worker.js';

export interface RouterLoopDeps {
  router: Pick<Router, 'routeOnce'>;
  workerId: string;
  clock: Clock;
  lifecycle: WorkerLifecycle;
  vitals: WorkerVitals;
  watch: LoopWatch;
  inFlight: InFlightSends;
  outboxSignal: OutboxSignal | undefined;
}

/**
 * Step 2 of the data flow in a loop: routes outbox rows into deliveries, hands what it routed
 * straight to this worker's sends when there is room, and paces itself — at once after a full
 * batch, a linger after a partial one (rows committed meanwhile go together), an idle poll (or the
 * outbox signal) when nothing was there.
 */
export class RouterLoop {
  /** Whether the outbox signal is paused: after two busy rounds in a row, until the router idles. */
  private signalPaused = false;
  private busyRounds = 0;
  private readonly idleMs: number;

  constructor(
    private readonly deps: RouterLoopDeps,
    private readonly settings: WorkerSettings,
  ) {
    this.idleMs = deps.outboxSignal === undefined ? settings.pollIntervalMs : settings.signalledPollIntervalMs;
  }

  async run(): Promise<void> {
    const { lifecycle, vitals } = this.deps;
    while (lifecycle.running) {
      const started = performance.now();
      try {
        const result = await this.route();
        // A full batch: more is waiting, go again at once.
        if (result.events >= this.settings.routeBatchSize) continue;
        if (result.events > 0) {
          await this.linger(started);
          continue;
        }
        this.busyRounds = 0;
        if (await this.resumeSignal()) continue;
      } catch (error) {
        vitals.failed('routing', error);
        await this.sleep(this.settings.errorBackoffMs);
        continue;
      }
      await this.sleep(this.idleMs);
    }
  }

  /** One routing round; what it routed for this worker is sent at once. */
  private async route(): Promise<RouteResult> {
    const { deps } = this;
    deps.watch.roundTrip();
    const result = await deps.router.routeOnce(this.handOff());
    deps.vitals.succeeded();
    const handed = result.lease?.deliveries.length ?? 0;
    if (result.lease !== undefined && deps.lifecycle.running) deps.inFlight.start(result.lease);
    if (result.deliveries > handed) deps.lifecycle.senderWaker.wake();
    if (result.events > 0) this.pauseSignalWhenBusy();
    return result;
  }

  /**
   * With room to send, what is routed is leased to this worker and sent at once: no claim round
   * trip, no wake-up hop (the latency path). Otherwise it waits for any worker's sender.
   */
  private handOff(): HandOff | undefined {
    const { deps, settings } = this;
    if (!deps.inFlight.hasRoom()) return undefined;
    return {
      owner: deps.workerId,
      expiresAt: new Date(deps.clock.now().getTime() + settings.leaseMs),
      limit: settings.sendBatchSize,
      excluded: deps.inFlight.stuckSubscriptions(),
    };
  }

  /**
   * Under sustained load every commit would wake this process (and a PostgreSQL backend) only to
   * find the router busy: the signals stop until the router idles.
   */
  private pauseSignalWhenBusy(): void {
    const signal = this.deps.outboxSignal;
    if (++this.busyRounds < 2 || this.signalPaused || signal?.pause === undefined) return;
    this.signalPaused = true;
    void signal.pause();
  }

  /**
   * Listens again after a pause; answers whether it did. Then the router looks once more at once:
   * rows committed before the signal resumed are found by that look, later ones signal.
   */
  private async resumeSignal(): Promise<boolean> {
    if (!this.signalPaused) return false;
    this.signalPaused = false;
    this.deps.watch.roundTrip();
    await this.deps.outboxSignal?.resume?.();
    return true;
  }

  /** Rows committed meanwhile are likely: let them gather for the rest of the linger. */
  private async linger(started: number): Promise<void> {
    this.deps.watch.sleep(this.settings.routeLingerMs);
    await this.deps.lifecycle.lingerUntil(started + this.settings.routeLingerMs);
  }

  private async sleep(ms: number): Promise<void> {
    this.deps.watch.sleep(ms);
    await this.deps.lifecycle.routerWaker.wait(ms);
  }
}
