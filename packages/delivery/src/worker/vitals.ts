import type { Logger } from 'pino';
import { WorkerHealth, type LoopWatch } from './health.js';

/**
 * What the worker's loops report about their database round trips, and what `healthy()` makes of
 * it: `WorkerHealth` keeps the facts, this logs the failures and each change of verdict (once, not
 * at every `/healthz` poll).
 */
export class WorkerVitals {
  private readonly health: WorkerHealth;
  private wasHealthy = true;

  constructor(
    private readonly logger: Logger,
    options: { healthTimeoutMs: number },
  ) {
    this.health = new WorkerHealth({ roundTripTimeoutMs: options.healthTimeoutMs });
  }

  /** The watch of one loop (router, sender): see `WorkerHealth.watch`. */
  watch(loop: string): LoopWatch {
    return this.health.watch(loop);
  }

  succeeded(): void {
    this.health.succeeded();
  }

  failed(what: string, error: unknown): void {
    this.health.failed();
    this.logger.error({ err: error }, `${what} failed`);
  }

  /** Healthy while `running` and the round trips are; logs the turns between the two. */
  healthy(running: boolean): boolean {
    const status = this.health.status();
    const isHealthy = running && status.healthy;
    if (isHealthy !== this.wasHealthy && running) {
      if (isHealthy) this.logger.info('healthy again');
      else this.logger.warn({ reason: status.reason }, 'unhealthy');
    }
    this.wasHealthy = isHealthy;
    return isHealthy;
  }
}
