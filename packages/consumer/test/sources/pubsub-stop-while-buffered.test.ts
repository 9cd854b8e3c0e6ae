import { PubSub } from '@google-cloud/pubsub';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startPubSubPeer, type PubSubPeer } from '@herald/testkit';
import { PubSubSource } from '../../src/index.js';
import { messagePayload } from '../support/fixtures.js';
import { fleet, HANDED_OVER_IN_ORDER } from '../support/handover.js';
import { until } from '../support/until.js';

let peer: PubSubPeer;
let pubsub: PubSub;

beforeEach(async () => {
  peer = await startPubSubPeer();
  peer.createTopic('herald');
  peer.createSubscription('herald-sub', 'herald');
  pubsub = new PubSub({ projectId: peer.projectId, apiEndpoint: peer.apiEndpoint });
});

afterEach(async () => {
  await pubsub.close();
  await peer.stop();
});

const publish = (body: object) => pubsub.topic('herald').publishMessage({ data: Buffer.from(JSON.stringify(body)) });

describe('PubSubSource.stop() while a delivery waits in the reorder buffer', () => {
  it('nacks the waiting message for another instance instead of acking it past a gap (which would make its predecessor late at the next instance)', async () => {
    // One store shared by both instances (a rolling deploy: A stops, B takes over).
    const { handled, consumerOf } = fleet();
    const consumerA = consumerOf('A');
    const sourceA = new PubSubSource({ pubsub, consumer: consumerA }, { subscriptionName: 'herald-sub' });
    await sourceA.start();
    await publish(messagePayload(2));
    await until(() => consumerA.bufferedCount === 1, 'm2 waits in A for m1', 5_000_000);
    await sourceA.stop();
    await consumerA.close();

    await publish(messagePayload(1));
    const consumerB = consumerOf('B');
    const sourceB = new PubSubSource({ pubsub, consumer: consumerB }, { subscriptionName: 'herald-sub' });
    await sourceB.start();
    await until(
      () => {
        const state = peer.subscription('herald-sub');
        return state.pending === 0 && state.outstanding === 0 && sourceB.inFlight === 0;
      },
      'the subscription is drained',
      20_000_000,
    );
    await sourceB.stop();
    await consumerB.close();

    expect(handled).toEqual(HANDED_OVER_IN_ORDER);
  }, 60_000);
});
