import { createHash } from 'node:crypto';
import type { Destination } from '@herald/model';
import type { DestinationEnvironment } from './environment.js';
import type { DestinationAdapter } from './port.js';
import { descriptorOf, DESTINATIONS, type DestinationRegistry } from './registry.js';

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

/** An adapter no send has asked for in this long is closed: its subscriptions were deleted or moved. */
export const IDLE_ADAPTER_CLOSE_MS = 10 * 60_000;

interface PooledAdapter {
  readonly adapter: DestinationAdapter;
  lastUsedAt: number;
}

/**
 * Adapters (and so SDK clients and connections) shared per destination configuration: every
 * subscription with the same destination uses one client. An adapter is closed once idle for
 * `IDLE_ADAPTER_CLOSE_MS` rather than when a subscription is deleted or changes destination, since
 * another subscription may share it and be sending right then. `closeAll()` on shutdown.
 */
export class DestinationPool {
  private readonly adapters = new Map<string, PooledAdapter>();
  private sweptAt: number;

  constructor(
    readonly env: DestinationEnvironment,
    private readonly registry: DestinationRegistry = DESTINATIONS,
    /** Milliseconds of a monotonic clock (tests pass their own). */
    private readonly now: () => number = () => performance.now(),
  ) {
    this.sweptAt = now();
  }

  get(destination: Destination): DestinationAdapter {
    const now = this.now();
    const key = destinationKey(destination);
    let pooled = this.adapters.get(key);
    if (pooled === undefined) {
      pooled = { adapter: descriptorOf(destination.type, this.registry).createAdapter(destination, this.env), lastUsedAt: now };
      this.adapters.set(key, pooled);
    }
    pooled.lastUsedAt = now;
    if (now - this.sweptAt >= IDLE_ADAPTER_CLOSE_MS / 10) this.closeIdle(now);
    return pooled.adapter;
  }

  get size(): number {
    return this.adapters.size;
  }

  private closeIdle(now: number): void {
    this.sweptAt = now;
    for (const [key, pooled] of this.adapters) {
      if (now - pooled.lastUsedAt < IDLE_ADAPTER_CLOSE_MS) continue;
      this.adapters.delete(key);
      pooled.adapter.close().catch((error: unknown) => this.env.logger.warn({ err: error }, 'closing an idle destination client failed'));
    }
  }

  async closeAll(): Promise<void> {
    const adapters = [...this.adapters.values()].map((pooled) => pooled.adapter);
    this.adapters.clear();
    const results = await Promise.allSettled(adapters.map((adapter) => adapter.close()));
    for (const result of results) {
      if (result.status === 'rejected') this.env.logger.warn({ err: result.reason }, 'closing a destination client failed');
    }
  }
}
