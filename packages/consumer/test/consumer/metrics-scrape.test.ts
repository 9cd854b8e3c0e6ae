import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createConsumer, MemoryDedupStore } from '../../src/index.js';
import { messagePayload } from '../support/fixtures.js';
import { sqs } from '../support/deliveries.js';

/*
 * The delivery counters are kept as plain counts and handed to prom-client when the registry is
 * read. Whatever the registry does in between — several reads, reads by metrics() or
 * getMetricsAsJSON(), resetMetrics() — the values read must be those of counters incremented as
 * deliveries are counted.
 */

function setup() {
  const registry = new Registry();
  const consumer = createConsumer({ dedup: new MemoryDedupStore(), metrics: { registry }, handler: () => undefined });
  return { registry, consumer };
}

/** A counter's total over its label sets. */
async function total(registry: Registry, name: string): Promise<number> {
  const metric = await registry.getSingleMetric(name)?.get();
  return (metric?.values ?? []).reduce((sum, value) => sum + value.value, 0);
}

async function histogramCount(registry: Registry, name: string): Promise<number> {
  const metric = await registry.getSingleMetric(name)?.get();
  return (metric?.values ?? [])
    .filter((value) => (value as { metricName?: string }).metricName === `${name}_count`)
    .reduce((sum, value) => sum + value.value, 0);
}

describe('delivery metrics read from the registry', () => {
  it('start from zero after registry.resetMetrics(), also for deliveries counted since the last read', async () => {
    const { registry, consumer } = setup();
    await consumer.process(sqs(messagePayload(1)));
    expect(await total(registry, 'herald_consumer_processed_total')).toBe(1);
    await consumer.process(sqs(messagePayload(2))); // counted, not read yet
    registry.resetMetrics();
    expect(await total(registry, 'herald_consumer_received_total')).toBe(0);
    expect(await total(registry, 'herald_consumer_processed_total')).toBe(0);
    expect(await histogramCount(registry, 'herald_consumer_handler_duration_seconds')).toBe(0);

    await consumer.process(sqs(messagePayload(3)));
    expect(await total(registry, 'herald_consumer_received_total')).toBe(1);
    expect(await total(registry, 'herald_consumer_processed_total')).toBe(1);
    expect(await histogramCount(registry, 'herald_consumer_handler_duration_seconds')).toBe(1);
  });

  it('start from zero after a reset of one counter, and only that counter', async () => {
    const { registry, consumer } = setup();
    await consumer.process(sqs(messagePayload(1)));
    registry.getSingleMetric('herald_consumer_received_total')?.reset();
    await consumer.process(sqs(messagePayload(2)));
    expect(await total(registry, 'herald_consumer_received_total')).toBe(1);
    expect(await total(registry, 'herald_consumer_processed_total')).toBe(2);
  });

  it('agree across several reads, and between metrics() and getMetricsAsJSON()', async () => {
    const { registry, consumer } = setup();
    await consumer.process(sqs(messagePayload(1)));
    await consumer.process(sqs(messagePayload(1))); // a duplicate
    const line = (text: string, name: string) => text.split('\n').find((entry) => entry.startsWith(`${name}{`));
    const first = await registry.metrics();
    const json = await registry.getMetricsAsJSON();
    const second = await registry.metrics();
    expect(line(first, 'herald_consumer_received_total')).toMatch(/ 2$/);
    expect(line(second, 'herald_consumer_received_total')).toMatch(/ 2$/);
    expect(line(second, 'herald_consumer_processed_total')).toMatch(/ 1$/);
    expect(line(second, 'herald_consumer_duplicates_total')).toMatch(/ 1$/);
    const received = json.find((metric) => metric.name === 'herald_consumer_received_total');
    expect(received?.values.reduce((sum, value) => sum + value.value, 0)).toBe(2);
    expect(await total(registry, 'herald_consumer_received_total')).toBe(2);
  });

  it('a second consumer on the same registry is refused, as it always was (metric names are registered once)', () => {
    const { registry } = setup();
    expect(() => createConsumer({ dedup: new MemoryDedupStore(), metrics: { registry }, handler: () => undefined })).toThrow(/already been registered/);
  });
});
