import { systemClock } from '@herald/model';
import type { Logger } from 'pino';
import { DeliveryEngine, type DeliveryEngineDeps } from '../engine/engine.js';
import type { DeliveryAdmin } from '../engine/admin.js';
import { releaseAllOf } from '../engine/leases.js';
import { InFlightSends } from './in-flight.js';
import { WorkerLifecycle } from './lifecycle.js';
import { runMaintenanceLoop } from './maintenance-loop.js';
import { RouterLoop } from './router-loop.js';
import { SenderLoop } from './sender-loop.js';
import { resolveWorkerSettings, type DeliveryWorkerOptions } from './settings.js';
import { WorkerVitals } from './vitals.js';

export type { DeliveryWorkerOptions } from './settings.js';

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

/**
 * Runs the delivery engine in this process: a router loop, a sender loop with a few leases in
 * flight, and a maintenance loop. Several workers (processes or containers) against one PostgreSQL
 * share the work through `FOR UPDATE SKIP LOCKED` and leases. `herald serve` calls this in-process
 * unless `HERALD_DELIVERY=off`; the `herald-delivery` entry point calls it in a worker container.
 */
export function startDeliveryWorker(deps: DeliveryWorkerDeps, options: DeliveryWorkerOptions = {}): DeliveryWorker {
  const engine = new DeliveryEngine(deps, options);
  const settings = resolveWorkerSettings(options, engine.settings);
  const logger: Logger = deps.logger.child({ component: 'delivery-worker', workerId: engine.workerId });
  const lifecycle = new WorkerLifecycle();
  const vitals = new WorkerVitals(logger, settings);
  const inFlight = new InFlightSends(
    {
      sender: engine.sender,
      logger,
      shutdown: lifecycle.shutdownSignal,
      failed: (what, error) => vitals.failed(what, error),
      wakeSender: () => lifecycle.senderWaker.wake(),
    },
    { places: settings.maxLeasesInFlight, stuckSendMs: settings.stuckSendMs },
  );
  const unsubscribe = deps.outboxSignal?.subscribe(() => lifecycle.routerWaker.wake());
  const router = new RouterLoop(
    {
      router: engine.router,
      workerId: engine.workerId,
      clock: deps.clock ?? systemClock,
      lifecycle,
      vitals,
      watch: vitals.watch('router'),
      inFlight,
      outboxSignal: deps.outboxSignal,
    },
    settings,
  );
  const sender = new SenderLoop({ sender: engine.sender, lifecycle, vitals, watch: vitals.watch('sender'), inFlight }, settings);
  const loops = Promise.all([
    router.run(),
    sender.run(),
    runMaintenanceLoop({ maintenance: engine.maintenance, lifecycle, vitals }, settings.maintenanceIntervalMs),
  ]);
  // herald_delivery_workers: summed over every process, the live workers (rule HeraldNoDeliveryWorker).
  engine.metrics?.workerRunning(true);
  logger.info('delivery worker started');

  let stopping: Promise<void> | undefined;
  return {
    engine,
    admin: engine.admin,
    workerId: engine.workerId,
    wake: () => lifecycle.routerWaker.wake(),
    healthy: () => vitals.healthy(lifecycle.running),
    stop() {
      stopping ??= (async () => {
        engine.metrics?.workerRunning(false);
        unsubscribe?.();
        await lifecycle.stopLoops(loops, settings.shutdownGraceMs);
        await releaseLeftovers(deps, engine, logger);
        logger.info('delivery worker stopped');
      })();
      return stopping;
    },
  };
}

/** Anything still leased after the loops ended (a recording that failed) goes back at once for another worker. */
async function releaseLeftovers(deps: DeliveryWorkerDeps, engine: DeliveryEngine, logger: Logger): Promise<void> {
  try {
    const released = await releaseAllOf(deps.db, engine.workerId, (deps.clock ?? systemClock).now());
    if (released > 0) logger.info({ released }, 'released leases');
  } catch (error) {
    logger.warn({ err: error }, 'releasing leases failed; they expire on their own');
  }
}
