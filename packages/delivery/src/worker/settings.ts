import type { DeliveryEngineOptions, DeliveryEngineSettings } from '../engine/engine.js';
import { definedOnly } from '../engine/defined-only.js';

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

export const DEFAULT_WORKER_OPTIONS = Object.freeze({
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
});

/** Everything the worker's parts read, defaults applied: the worker's own and the engine's. */
export type WorkerSettings = Readonly<typeof DEFAULT_WORKER_OPTIONS> & Pick<DeliveryEngineSettings, 'routeBatchSize' | 'sendBatchSize' | 'leaseMs'>;

/**
 * Resolves the worker's options once. The engine's own (batch sizes, lease length) come as the
 * engine resolved them, so that the two never disagree about a default.
 */
export function resolveWorkerSettings(options: DeliveryWorkerOptions, engine: DeliveryEngineSettings): WorkerSettings {
  const given = definedOnly(options);
  const own = Object.fromEntries(
    Object.entries(DEFAULT_WORKER_OPTIONS).map(([name, fallback]) => [name, given[name as keyof typeof DEFAULT_WORKER_OPTIONS] ?? fallback]),
  ) as typeof DEFAULT_WORKER_OPTIONS;
  return Object.freeze({
    ...own,
    routeBatchSize: engine.routeBatchSize,
    sendBatchSize: engine.sendBatchSize,
    leaseMs: engine.leaseMs,
  });
}
