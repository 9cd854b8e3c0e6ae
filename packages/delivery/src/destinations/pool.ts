import { createHash } from 'node:crypto';
import type { Destination } from '@herald/model';
import type { DestinationEnvironment } from './environment.js';
import type { DestinationAdapter } from './port.js';
import { createDestinationAdapter, DESTINATION_FACTORIES, type DestinationFactories } from './registry.js';

/** JSON with object keys sorted, so equal configurations give equal text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * A stable key for a destination configuration. Hashed, so that secrets in it never appear in
 * logs or metrics that name the key.
 */
export function destinationKey(destination: Destination): string {
  return createHash('sha256').update(canonicalJson(destination)).digest('hex').slice(0, 32);
}

/**
 * Adapters (and so SDK clients and connections) shared per destination configuration: every
 * subscription with the same destination uses one client. `closeAll()` on shutdown.
 */
export class DestinationPool {
  private readonly adapters = new Map<string, DestinationAdapter>();

  constructor(
    readonly env: DestinationEnvironment,
    private readonly factories: DestinationFactories = DESTINATION_FACTORIES,
  ) {}

  get(destination: Destination): DestinationAdapter {
    const key = destinationKey(destination);
    let adapter = this.adapters.get(key);
    if (adapter === undefined) {
      adapter = createDestinationAdapter(destination, this.env, this.factories);
      this.adapters.set(key, adapter);
    }
    return adapter;
  }

  get size(): number {
    return this.adapters.size;
  }

  /** Closes and forgets one destination's adapter (its subscription moved elsewhere). */
  async release(destination: Destination): Promise<void> {
    const key = destinationKey(destination);
    const adapter = this.adapters.get(key);
    this.adapters.delete(key);
    await adapter?.close();
  }

  async closeAll(): Promise<void> {
    const adapters = [...this.adapters.values()];
    this.adapters.clear();
    const results = await Promise.allSettled(adapters.map((adapter) => adapter.close()));
    for (const result of results) {
      if (result.status === 'rejected') this.env.logger.warn({ err: result.reason }, 'closing a destination client failed');
    }
  }
}
