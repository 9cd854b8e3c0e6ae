import { performance } from 'node:perf_hooks';
import type { ConsumerMetrics } from '../metrics/consumer-metrics.js';
import type { DedupStore } from './dedup-store.js';

async function timed<T>(metrics: ConsumerMetrics, operation: string, call: () => Promise<T>): Promise<T> {
  // Latency is real elapsed time, not the injected clock (which may be a test's manual clock).
  const startedAt = performance.now();
  try {
    return await call();
  } finally {
    metrics.redisCommand(operation, (performance.now() - startedAt) / 1000);
  }
}

/** The store with each batched call timed into `herald_consumer_redis_command_duration_seconds`. */
export function instrumentStore(store: DedupStore, metrics: ConsumerMetrics): DedupStore {
  if (store.kind !== 'redis') return store;
  return {
    kind: store.kind,
    keyPrefix: store.keyPrefix,
    leaseMs: store.leaseMs,
    claim: (requests) => timed(metrics, 'claim', () => store.claim(requests)),
    renew: (leases) => timed(metrics, 'renew', () => store.renew(leases)),
    release: (leases) => timed(metrics, 'release', () => store.release(leases)),
    complete: (requests) => timed(metrics, 'complete', () => store.complete(requests)),
    readPositions: (streams) => timed(metrics, 'read_positions', () => store.readPositions(streams)),
  };
}
