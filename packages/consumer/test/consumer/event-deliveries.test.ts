import { describe, expect, it } from 'vitest';
import { createConsumer, MemoryDedupStore, parseDelivery, type DeliveryContext, type EventDelivery } from '../../src/index.js';
import { snsEnvelopeOf } from '../support/fixtures.js';
import { sqs } from '../support/deliveries.js';
import { ManualClock } from '../support/manual-clock.js';

/*
 * Event subscriptions' deliveries (reference: types/subscription/EventDeliveryPayload.raml, the
 * example event-payload.example.json): { notificationType: 'Event', id, type, resourceType, data,
 * createdAt }, with no projectKey, resource, sequence number or version.
 */

function eventPayload(id: string, type = 'ImportContainerCreated') {
  return {
    id,
    notificationType: 'Event',
    type,
    resourceType: 'import-api',
    data: { version: 1, key: 'my-import-container', createdAt: '2025-03-26T17:28:20.376Z', lastModifiedAt: '2025-03-26T17:28:20.376Z' },
    createdAt: '2025-03-26T17:28:20.397Z',
  };
}

describe('event deliveries', () => {
  it('are parsed and typed, in the Platform format, in CloudEvents and inside envelopes', () => {
    const payload = eventPayload('3b364ca2-cbe5-42b4-a85a-37d4e57d659e');
    const cloudEvent = {
      specversion: '1.0',
      id: payload.id,
      type: 'com.commercetools.import-api.event.ImportContainerCreated',
      source: '/proj/import-api',
      time: payload.createdAt,
      data: payload,
    };
    for (const body of [JSON.stringify(payload), JSON.stringify(cloudEvent), snsEnvelopeOf(JSON.stringify(payload))]) {
      const parsed = parseDelivery({ source: 'sqs', body });
      expect(parsed).toMatchObject({ kind: 'delivery', delivery: { notificationType: 'Event', payload } });
    }
  });

  it('without data, or with a non-string type, are invalid payloads', () => {
    const { data: _data, ...withoutData } = eventPayload('e-1');
    expect(parseDelivery({ source: 'sqs', body: JSON.stringify(withoutData) })).toMatchObject({
      kind: 'error',
      error: { reason: 'invalid-payload', path: 'body.data' },
    });
    expect(parseDelivery({ source: 'sqs', body: JSON.stringify({ ...eventPayload('e-1'), type: 7 }) })).toMatchObject({
      kind: 'error',
      error: { reason: 'invalid-payload', path: 'body.type' },
    });
  });

  it('go to onEvent, deduplicated by id and never held for ordering', async () => {
    const clock = new ManualClock();
    const handled: { delivery: EventDelivery; context: DeliveryContext }[] = [];
    const consumer = createConsumer({
      dedup: new MemoryDedupStore({ clock }),
      clock,
      ordering: { maxWaitMs: 10_000 },
      handler: () => {
        throw new Error('events must not reach the resource handler');
      },
      onEvent: (delivery, context) => void handled.push({ delivery, context }),
    });
    // No sequence, no version: nothing to wait for, whatever order they come in.
    const outcomes = await Promise.all([consumer.process(sqs(eventPayload('e-2'))), consumer.process(sqs(eventPayload('e-1')))]);
    expect(outcomes.map((outcome) => outcome.items[0]?.status)).toEqual(['processed', 'processed']);
    expect((await consumer.process(sqs(eventPayload('e-1')))).items[0]).toMatchObject({ status: 'duplicate', dedupKey: 'herald:events:import-api:e-1' });
    expect(handled.map(({ delivery }) => delivery.payload.id)).toEqual(['e-2', 'e-1']);
    expect(handled[0]?.context).toMatchObject({ dedupKey: 'herald:events:import-api:e-2', streamKey: 'events:import-api' });
    expect(handled[0]?.context.gap).toBeUndefined();
  });

  it('without onEvent, are dead-lettered as a no-event-handler parse error', async () => {
    const consumer = createConsumer({ dedup: new MemoryDedupStore(), handler: () => undefined });
    const outcome = await consumer.process(sqs(eventPayload('e-3')));
    expect(outcome).toMatchObject({
      action: 'dead-letter',
      items: [{ status: 'parse-error', error: { reason: 'no-event-handler' }, decision: 'dead-letter' }],
    });
  });
});
