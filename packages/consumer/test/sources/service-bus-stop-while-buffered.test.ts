import { ServiceBusClient } from '@azure/service-bus';
import { afterEach, describe, expect, it } from 'vitest';
import { startServiceBusPeer, type ServiceBusPeer } from '@herald/testkit';
import { ServiceBusSource } from '../../src/index.js';
import { messagePayload } from '../support/fixtures.js';
import { fleet, HANDED_OVER_IN_ORDER } from '../support/handover.js';
import { until } from '../support/until.js';

let peer: ServiceBusPeer | undefined;
let client: ServiceBusClient | undefined;

afterEach(async () => {
  await client?.close();
  await peer?.stop();
  client = undefined;
  peer = undefined;
});

describe('ServiceBusSource.stop() while a delivery waits in the reorder buffer', () => {
  it('abandons the waiting message for another instance instead of completing it past a gap (which would make its predecessor late at the next instance)', async () => {
    peer = await startServiceBusPeer({ entities: ['herald'] });
    client = new ServiceBusClient(peer.connectionString(), { retryOptions: { maxRetries: 0, timeoutInMs: 5_000 } });

    // One store shared by both instances (a rolling deploy: A stops, B takes over).
    const { handled, consumerOf } = fleet();
    const consumerA = consumerOf('A');
    const sourceA = new ServiceBusSource({ client, consumer: consumerA }, { queueName: 'herald', maxConcurrentCalls: 4 });
    peer.enqueue('herald', { body: messagePayload(2), messageId: 'm-2' });
    sourceA.start();
    await until(() => consumerA.bufferedCount === 1, 'm2 waits in A for m1', 5_000_000);
    await sourceA.stop();
    await consumerA.close();

    peer.enqueue('herald', { body: messagePayload(1), messageId: 'm-1' });
    const consumerB = consumerOf('B');
    const sourceB = new ServiceBusSource({ client, consumer: consumerB }, { queueName: 'herald', maxConcurrentCalls: 4 });
    sourceB.start();
    const sb = peer;
    await until(() => sb.pending('herald').length === 0 && sourceB.inFlight === 0, 'the queue is drained', 20_000_000);
    await sourceB.stop();
    await consumerB.close();

    expect(handled).toEqual(HANDED_OVER_IN_ORDER);
  }, 60_000);
});
