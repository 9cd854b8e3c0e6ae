import type { Maintenance } from '../engine/maintenance.js';
import type { WorkerLifecycle } from './lifecycle.js';
import type { WorkerVitals } from './vitals.js';

/**
 * Elapsed-window sweep and retention cleanup every `intervalMs`. Not watched for health: its round
 * trips may legitimately run long (dropping every pending delivery of a subscription), they are
 * bounded by the database driver's statement timeout, and a database that stopped answering stalls
 * the router and the sender within the bound anyway.
 */
export async function runMaintenanceLoop(
  deps: { maintenance: Pick<Maintenance, 'runOnce'>; lifecycle: WorkerLifecycle; vitals: WorkerVitals },
  intervalMs: number,
): Promise<void> {
  while (deps.lifecycle.running) {
    try {
      await deps.maintenance.runOnce();
      deps.vitals.succeeded();
    } catch (error) {
      deps.vitals.failed('maintenance', error);
    }
    await deps.lifecycle.maintenanceWaker.wait(intervalMs);
  }
}
