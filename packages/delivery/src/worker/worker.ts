import { systemClock } from '@herald/model';
import type { Logger } from 'pino';
import { DEFAULT_ENGINE_OPTIONS, DeliveryEngine, type DeliveryEngineDeps, type DeliveryEngineOptions } from '../engine/engine.js';
import type { DeliveryAdmin } from '../engine/admin.js';
import { bySubscription, releaseAllOf, type Lease } from '../engine/leases.js';
import type { SubscriptionRef } from '../engine/types.js';
import { WorkerHealth } from './health.js';
import { Waker } from './waker.js';

/** Tells the worker that outbox rows may have been committed (PostgreSQL LISTEN, or the gateway). */
export interface OutboxSignal {
  /** Calls `listener` on every signal; answers the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /**
   * The router is busy and routes again by itself: signals may stop until `resume` (PostgreSQL:
   * UNLISTEN, so that a write does not wake the listening backend and this process for nothing).
   * Resolves when they have stopped; the router does not wait for that.
   */
  pause?(): Promise<void>;
  /** Signals flow again once this resolves: a commit after that point signals. */
  resume?(): Promise<void>;
}

export interface DeliveryWorkerDeps extends DeliveryEngineDeps {
  outboxSignal?: OutboxSignal;
}

export interface DeliveryWorkerOptions extends DeliveryEngineOptions {
  /** Idle poll of the router when no outbox signal is given (default 25 ms): the latency floor. */
  pollIntervalMs?: number;
  /**
   * Idle poll of the sender (default 100 ms). New deliveries routed here wake it at once; the poll
   * finds retries that became due and deliveries another worker routed but has not sent.
   */
  senderPollIntervalMs?: number;
  /** Idle poll of the router when an outbox signal wakes it (default 1 s; a safety net). */
  signalledPollIntervalMs?: number;
  /**
   * Under load, the least time from one routing statement to the next (default 25 ms; 0 = none).
   * After a batch that was not full the router waits out the rest of it, so that rows committed
   * meanwhile are routed, leased and sent together: at 1,000 events/s, batches of about ten
   * instead of two or three (each batch costs a statement, a lease, a destination request and a
   * delete). An event that arrives when the router is idle is routed at once: only events that
   * arrive while it is busy wait, at most this long.
   */
  routeLingerMs?: number;
  /** Leases being sent at once (default 8): sends wait on the network, not the CPU. */
  maxLeasesInFlight?: number;
  /**
   * A subscription's send in flight this long (default 2 s) is stuck: it stops holding its lease's
   * place among `maxLeasesInFlight`, and this worker leases that subscription nothing more until it
   * ends (by the destination's answer or the send timeout). So a destination that hangs delays its
   * own deliveries only, not every subscription's that shared its leases.
   */
  stuckSendMs?: number;
  /** Elapsed-window sweep and retention cleanup interval (default 30 s). */
  maintenanceIntervalMs?: number;
  /** On stop, in-flight sends get this long to finish before they are aborted and released (default 5 s). */
  shutdownGraceMs?: number;
  /** Pause after a failed database round trip (default 1 s). */
  errorBackoffMs?: number;
  /**
   * `healthy()` turns false when a routing or claiming round trip has been in flight this long, or
   * a loop has not started its next one this long after its sleep should have ended (default 10 s).
   */
  healthTimeoutMs?: number;
}

export interface DeliveryWorker {
  readonly engine: DeliveryEngine;
  readonly admin: DeliveryAdmin;
  readonly workerId: string;
  /** There may be new outbox rows: route now instead of at the next poll. */
  wake(): void;
  /**
   * Loops running, the last database round trip succeeded, and none of the router's or sender's
   * is in flight longer than `healthTimeoutMs` (for `/healthz`).
   */
  healthy(): boolean;
  /** Stops claiming, finishes or releases in-flight sends, and gives back every lease it holds. */
  stop(): Promise<void>;
}

const DEFAULTS = {
  pollIntervalMs: 25,
  senderPollIntervalMs: 100,
  signalledPollIntervalMs: 1_000,
  routeLingerMs: 25,
  maxLeasesInFlight: 8,
  stuckSendMs: 2_000,
  maintenanceIntervalMs: 30_000,
  shutdownGraceMs: 5_000,
  errorBackoffMs: 1_000,
  healthTimeoutMs: 10_000,
};

/**
 * Runs the delivery engine in this process: a router loop, a sender loop with a few leases in
 * flight, and a maintenance loop. Several workers (processes or containers) against one PostgreSQL
 * share the work through `FOR UPDATE SKIP LOCKED` and leases. `herald serve` calls this in-process
 * unless `HERALD_DELIVERY=off`; the `herald-delivery` entry point calls it in a worker container.
 */
export function startDeliveryWorker(deps: DeliveryWorkerDeps, options: DeliveryWorkerOptions = {}): DeliveryWorker {
  const settings = { ...DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) } as typeof DEFAULTS &
    DeliveryWorkerOptions;
  const engine = new DeliveryEngine(deps, options);
  const logger: Logger = deps.logger.child({ component: 'delivery-worker', workerId: engine.workerId });
  const clock = deps.clock ?? systemClock;
  const routerWaker = new Waker();
  /** Cut short only by stop(): outbox signals must not end a linger. */
  const lingerWaker = new Waker();
  const senderWaker = new Waker();
  const maintenanceWaker = new Waker();
  const shutdown = new AbortController();
  let running = true;
  const health = new WorkerHealth({ roundTripTimeoutMs: settings.healthTimeoutMs });
  // Maintenance is not watched: its round trips may legitimately run long (dropping every pending
  // delivery of a subscription), they are bounded by the database driver's statement timeout, and
  // a database that stopped answering stalls the router and the sender within the bound anyway.
  const routerWatch = health.watch('router');
  const senderWatch = health.watch('sender');

  const unsubscribe = deps.outboxSignal?.subscribe(() => routerWaker.wake());
  const routerIdleMs = deps.outboxSignal === undefined ? settings.pollIntervalMs : settings.signalledPollIntervalMs;

  const ok = (): void => health.succeeded();
  const failedRoundTrip = (what: string, error: unknown): void => {
    health.failed();
    logger.error({ err: error }, `${what} failed`);
  };
  let wasHealthy = true;
  const healthy = (): boolean => {
    const status = health.status();
    const isHealthy = running && status.healthy;
    if (isHealthy !== wasHealthy && running) {
      if (isHealthy) logger.info('healthy again');
      else logger.warn({ reason: status.reason }, 'unhealthy');
    }
    wasHealthy = isHealthy;
    return isHealthy;
  };

  /**
   * Leases being sent, whether the sender claimed them or the router handed them over, until each
   * of their subscriptions' sends ended or got stuck: the `maxLeasesInFlight` budget.
   */
  const inFlight = new Set<Promise<void>>();
  /** Every send not ended yet, stuck ones included (what stop() waits for). */
  const sends = new Set<Promise<void>>();
  /** Stuck sends per subscription (`project\0subscription`): left out of claims and hand-offs. */
  const stuck = new Map<string, { ref: SubscriptionRef; count: number }>();
  const stuckSubscriptions = (): SubscriptionRef[] => [...stuck.values()].map((entry) => entry.ref);
  const leaseMs = options.leaseMs ?? DEFAULT_ENGINE_OPTIONS.leaseMs;
  const sendBatchSize = options.sendBatchSize ?? DEFAULT_ENGINE_OPTIONS.sendBatchSize;

  /**
   * One send per subscription of the lease. The lease's place is given back when they have all
   * ended, or after `stuckSendMs`: those still running then are stuck.
   */
  function send(lease: Lease): void {
    const groups = [...bySubscription(lease.deliveries)].map(([key, deliveries]) => sendGroup(key, { ...lease, deliveries }));
    let markStuck: NodeJS.Timeout | undefined;
    const place: Promise<void> = new Promise<void>((resolve) => {
      markStuck = setTimeout(() => {
        for (const group of groups) group.markStuck();
        resolve();
      }, settings.stuckSendMs);
      void Promise.all(groups.map((group) => group.done)).then(() => resolve());
    }).finally(() => {
      clearTimeout(markStuck);
      inFlight.delete(place);
    });
    inFlight.add(place);
  }

  function sendGroup(key: string, lease: Lease): { done: Promise<void>; markStuck(): void } {
    const first = lease.deliveries[0] as Lease['deliveries'][number];
    const started = performance.now();
    let ended = false;
    let isStuck = false;
    const done: Promise<void> = engine.sender
      .deliver(lease, shutdown.signal)
      .then((result) => logger.debug({ ...result, ms: Math.round(performance.now() - started) }, 'lease delivered'))
      .catch((error: unknown) => failedRoundTrip('delivering', error))
      .finally(() => {
        ended = true;
        sends.delete(done);
        if (!isStuck) return;
        const entry = stuck.get(key);
        if (entry !== undefined && --entry.count === 0) stuck.delete(key);
        // Its deliveries may be due meanwhile: claim them now rather than at the next poll.
        senderWaker.wake();
      });
    sends.add(done);
    return {
      done,
      markStuck() {
        if (ended || isStuck) return;
        isStuck = true;
        const entry = stuck.get(key);
        if (entry !== undefined) entry.count++;
        else stuck.set(key, { ref: { projectKey: first.projectKey, subscriptionId: first.subscriptionId }, count: 1 });
        logger.warn({ projectKey: first.projectKey, subscriptionId: first.subscriptionId, ms: settings.stuckSendMs }, 'send stuck at the destination');
      },
    };
  }

  /** Sleeps until `until` (performance.now() time) unless the worker stops first. */
  const lingerUntil = async (until: number): Promise<void> => {
    const ms = until - performance.now();
    if (ms > 0 && running) await lingerWaker.wait(ms);
  };
  const routeBatchSize = options.routeBatchSize ?? DEFAULT_ENGINE_OPTIONS.routeBatchSize;

  /** Whether the outbox signal is paused: after two busy rounds in a row, until the router idles. */
  let signalPaused = false;
  let busyRounds = 0;

  async function routerLoop(): Promise<void> {
    while (running) {
      const started = performance.now();
      try {
        // With room to send, what is routed is leased to this worker and sent at once: no claim
        // round trip, no wake-up hop (the latency path). Otherwise it waits for any sender.
        const handOff =
          inFlight.size < settings.maxLeasesInFlight
            ? { owner: engine.workerId, expiresAt: new Date(clock.now().getTime() + leaseMs), limit: sendBatchSize, excluded: stuckSubscriptions() }
            : undefined;
        routerWatch.roundTrip();
        const result = await engine.router.routeOnce(handOff);
        ok();
        const handed = result.lease?.deliveries.length ?? 0;
        if (result.lease !== undefined && running) send(result.lease);
        if (result.deliveries > handed) senderWaker.wake();
        if (result.events > 0 && ++busyRounds >= 2 && !signalPaused && deps.outboxSignal?.pause !== undefined) {
          // Under sustained load every commit would wake this process (and a PostgreSQL backend)
          // only to find the router busy: stop the signals until the router idles.
          signalPaused = true;
          void deps.outboxSignal.pause();
        }
        // A full batch: more is waiting, go again at once. Otherwise rows committed meanwhile are
        // likely: let them gather for the rest of the linger, then go again.
        if (result.events >= routeBatchSize) continue;
        if (result.events > 0) {
          routerWatch.sleep(settings.routeLingerMs);
          await lingerUntil(started + settings.routeLingerMs);
          continue;
        }
        busyRounds = 0;
        if (signalPaused) {
          // Listen again, then look once more: rows committed before the signal resumed are found
          // by that look, later ones signal.
          signalPaused = false;
          routerWatch.roundTrip();
          await deps.outboxSignal?.resume?.();
          continue;
        }
      } catch (error) {
        failedRoundTrip('routing', error);
        routerWatch.sleep(settings.errorBackoffMs);
        await routerWaker.wait(settings.errorBackoffMs);
        continue;
      }
      routerWatch.sleep(routerIdleMs);
      await routerWaker.wait(routerIdleMs);
    }
  }

  async function senderLoop(): Promise<void> {
    while (running) {
      if (inFlight.size >= settings.maxLeasesInFlight) {
        // Sends are bounded by the send timeout and the driver's; a database that stopped
        // answering meanwhile stalls the router.
        senderWatch.waitUnbounded();
        await Promise.race(inFlight);
        continue;
      }
      let lease;
      try {
        senderWatch.roundTrip();
        lease = await engine.sender.claim(stuckSubscriptions());
        ok();
      } catch (error) {
        failedRoundTrip('claiming deliveries', error);
        senderWatch.sleep(settings.errorBackoffMs);
        await senderWaker.wait(settings.errorBackoffMs);
        continue;
      }
      if (lease === undefined) {
        senderWatch.sleep(settings.senderPollIntervalMs);
        await senderWaker.wait(settings.senderPollIntervalMs);
        continue;
      }
      send(lease);
    }
    // Handed-over leases and stuck sends included: the router loop has stopped by now or stops next.
    while (sends.size > 0) await Promise.all(sends);
  }

  async function maintenanceLoop(): Promise<void> {
    while (running) {
      try {
        await engine.maintenance.runOnce();
        ok();
      } catch (error) {
        failedRoundTrip('maintenance', error);
      }
      await maintenanceWaker.wait(settings.maintenanceIntervalMs);
    }
  }

  const loops = Promise.all([routerLoop(), senderLoop(), maintenanceLoop()]);
  // herald_delivery_workers: summed over every process, the live workers (rule HeraldNoDeliveryWorker).
  engine.metrics?.workerRunning(true);
  logger.info('delivery worker started');

  let stopping: Promise<void> | undefined;
  return {
    engine,
    admin: engine.admin,
    workerId: engine.workerId,
    wake: () => routerWaker.wake(),
    healthy,
    stop() {
      stopping ??= (async () => {
        running = false;
        engine.metrics?.workerRunning(false);
        unsubscribe?.();
        routerWaker.wake();
        lingerWaker.wake();
        senderWaker.wake();
        maintenanceWaker.wake();
        // In-flight sends may finish within the grace period; then they are aborted and released.
        const grace = setTimeout(() => shutdown.abort(new Error('delivery worker stopping')), settings.shutdownGraceMs);
        try {
          await loops;
        } finally {
          clearTimeout(grace);
        }
        // Anything still leased (a recording that failed) goes back at once for another worker.
        try {
          const released = await releaseAllOf(deps.db, engine.workerId, clock.now());
          if (released > 0) logger.info({ released }, 'released leases');
        } catch (error) {
          logger.warn({ err: error }, 'releasing leases failed; they expire on their own');
        }
        logger.info('delivery worker stopped');
      })();
      return stopping;
    },
  };
}
