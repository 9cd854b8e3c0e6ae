import { DeliveryMetrics, DELIVERY_METRIC_NAMES } from '@herald/delivery';
import Fastify from 'fastify';
import { Registry } from 'prom-client';
import { installHttpMetrics } from '../../../src/http/metrics.js';
// The gateway does not depend on the consumer package; its metrics module is read from source.
import { CONSUMER_METRIC_NAMES, createConsumerMetrics } from '../../../../consumer/src/metrics/consumer-metrics.js';

export interface KnownMetric {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary';
  labels: readonly string[];
  /** Which code registers it. */
  owner: 'delivery' | 'consumer' | 'http';
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
  exportedNames: { delivery: readonly string[]; consumer: readonly string[]; http: readonly string[] };
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
  createConsumerMetrics(consumer);
  const http = new Registry();
  const app = Fastify();
  installHttpMetrics(app, http);
  await app.close();

  const metrics = new Map<string, KnownMetric>();
  for (const metric of [...describe(delivery, 'delivery'), ...describe(consumer, 'consumer'), ...describe(http, 'http')]) {
    if (metrics.has(metric.name)) throw new Error(`metric ${metric.name} is registered twice`);
    metrics.set(metric.name, metric);
  }
  return {
    metrics,
    exportedNames: {
      delivery: DELIVERY_METRIC_NAMES,
      consumer: CONSUMER_METRIC_NAMES,
      http: describe(http, 'http').map((metric) => metric.name),
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
