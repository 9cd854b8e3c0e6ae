import { DeliveryMetrics, DELIVERY_METRIC_NAMES, PROCESS_METRIC_NAMES, registerProcessMetrics } from '@herald/delivery';
import type { Database } from '@herald/store';
import Fastify from 'fastify';
import { Registry } from 'prom-client';
import { installHttpMetrics } from '../../../src/http/metrics.js';
// A dev dependency only: the dashboards chart the consumer's metrics too (deploy/grafana).
import { CONSUMER_METRIC_NAMES, createConsumer, MemoryDedupStore } from '@herald/consumer';

export interface KnownMetric {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary';
  labels: readonly string[];
  /**
   * Which code registers it: `process` is Herald's own per-process metrics (database probe, outbox,
   * build info), `runtime` prom-client's default process metrics (not Herald's to document).
   */
  owner: 'delivery' | 'consumer' | 'http' | 'process' | 'runtime';
}

/** Labels Prometheus adds to every scraped series (the scrape job's target labels). */
export const TARGET_LABELS: readonly string[] = ['job', 'instance'];

/** Series Prometheus itself produces for every target (not registered by any code). */
export const PROMETHEUS_SERIES: ReadonlyMap<string, readonly string[]> = new Map([['up', []]]);

const HISTOGRAM_SUFFIXES = ['_bucket', '_sum', '_count'] as const;

interface MetricInternals {
  name: string;
  type: string;
  labelNames?: readonly string[];
}

function describe(registry: Registry, owner: KnownMetric['owner']): KnownMetric[] {
  // prom-client keeps the label names on the metric object (not in its public type).
  return (registry.getMetricsAsArray() as unknown as MetricInternals[]).map((metric) => ({
    name: metric.name,
    type: String(metric.type) as KnownMetric['type'],
    labels: [...(metric.labelNames ?? [])],
    owner,
  }));
}

export interface MetricCatalogue {
  metrics: ReadonlyMap<string, KnownMetric>;
  /** The names the packages export for this purpose (DELIVERY_METRIC_NAMES, CONSUMER_METRIC_NAMES, the HTTP histogram). */
  exportedNames: { delivery: readonly string[]; consumer: readonly string[]; http: readonly string[]; process: readonly string[] };
  /** The registered metric a series name belongs to (`…_bucket` → its histogram), or undefined. */
  resolve(series: string): { metric: KnownMetric; suffix: string } | undefined;
}

/**
 * Registers the real metrics of the three packages on fresh registries, exactly as the processes
 * do, and reads back their names, types and label names.
 */
export async function metricCatalogue(): Promise<MetricCatalogue> {
  const delivery = new Registry();
  new DeliveryMetrics({ registry: delivery });
  const consumer = new Registry();
  // As an application registers them: a consumer given the registry (closed at once, it handles nothing).
  await createConsumer({ dedup: new MemoryDedupStore(), metrics: { registry: consumer }, handler: () => undefined }).close();
  const processRegistry = new Registry();
  // Describing the metrics collects nothing: the database is never asked.
  registerProcessMetrics({ registry: processRegistry, db: UNUSED_DATABASE, version: '0.0.0' });
  const ownProcess = new Set(PROCESS_METRIC_NAMES);
  const processMetrics = describe(processRegistry, 'process').map((metric) =>
    ownProcess.has(metric.name) ? metric : { ...metric, owner: 'runtime' as const },
  );
  const http = new Registry();
  const app = Fastify();
  installHttpMetrics(app, http);
  await app.close();

  const metrics = new Map<string, KnownMetric>();
  for (const metric of [...describe(delivery, 'delivery'), ...describe(consumer, 'consumer'), ...describe(http, 'http'), ...processMetrics]) {
    if (metrics.has(metric.name)) throw new Error(`metric ${metric.name} is registered twice`);
    metrics.set(metric.name, metric);
  }
  return {
    metrics,
    exportedNames: {
      delivery: DELIVERY_METRIC_NAMES,
      consumer: CONSUMER_METRIC_NAMES,
      http: describe(http, 'http').map((metric) => metric.name),
      process: PROCESS_METRIC_NAMES,
    },
    resolve(series) {
      const exact = metrics.get(series);
      if (exact !== undefined) return { metric: exact, suffix: '' };
      for (const suffix of HISTOGRAM_SUFFIXES) {
        if (!series.endsWith(suffix)) continue;
        const base = metrics.get(series.slice(0, -suffix.length));
        if (base !== undefined && (base.type === 'histogram' || (base.type === 'summary' && suffix !== '_bucket'))) {
          return { metric: base, suffix };
        }
      }
      return undefined;
    },
  };
}

const refuse = (): Promise<never> => Promise.reject(new Error('the metric catalogue reads no database'));
const UNUSED_DATABASE: Database = {
  driver: 'pglite',
  query: refuse,
  exec: refuse,
  transaction: refuse,
  close: refuse,
};
