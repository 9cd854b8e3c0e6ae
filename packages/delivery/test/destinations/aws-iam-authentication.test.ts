import type { Destination } from '@herald/model';
import { awsChainOnlyEnvironment, startSqsPeer, type SqsPeer } from '@herald/testkit';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDestinationEnvironment, DestinationPool, sendTestNotification } from '../../src/index.js';
import { startAwsFaultProxy, type AwsFaultProxy } from './support/aws-fault-proxy.js';

const REGION = 'us-east-1';
/** Herald's own identity as the process environment gives it (the SDK's default provider chain). */
const HERALD_KEY_ID = 'AKIAHERALDPROCESSENV1';
const DESTINATION_KEYS = { accessKey: 'AKIADESTINATIONKEYS1', accessSecret: 'destination-secret' };

/**
 * The process environment the default chain reads: nothing but what a case sets. The shared
 * config files point at nothing, and the instance metadata service is off (it is not on loopback).
 */
function isolateAwsEnvironment(keyId: string | undefined): void {
  const credentials = keyId === undefined ? undefined : { accessKeyId: keyId, secretAccessKey: 'herald-process-secret' };
  for (const [name, value] of Object.entries(awsChainOnlyEnvironment(credentials))) vi.stubEnv(name, value);
}

/**
 * SQS and SNS destinations in `IAM` mode (reference type AwsAuthenticationMode): no keys of their
 * own, sent with Herald's credentials from the SDK's default provider chain, here the process
 * environment. A loopback proxy in front of fauxqs reads which access key signed each request.
 */
describe('AWS authenticationMode', () => {
  let peer: SqsPeer;
  let sqsProxy: AwsFaultProxy;
  let snsProxy: AwsFaultProxy;
  let pool: DestinationPool;
  let counter = 0;
  const clock = { now: () => new Date('2026-02-03T04:05:06.000Z') };

  beforeAll(async () => {
    peer = await startSqsPeer({ region: REGION });
    [sqsProxy, snsProxy] = await Promise.all([startAwsFaultProxy(peer.endpoint, 'json'), startAwsFaultProxy(peer.endpoint, 'query')]);
  });
  afterAll(async () => {
    await Promise.all([sqsProxy?.stop(), snsProxy?.stop()]);
    await peer?.stop();
  });
  beforeEach(() => {
    // A fresh pool per case: an SDK client resolves its credentials once and keeps them.
    pool = new DestinationPool(createDestinationEnvironment({ endpoints: { sqs: sqsProxy.endpoint, sns: snsProxy.endpoint } }));
    sqsProxy.signingAccessKeyIds.length = 0;
    snsProxy.signingAccessKeyIds.length = 0;
  });
  afterEach(async () => {
    await pool.closeAll();
    vi.unstubAllEnvs();
  });

  function sqsDestination(extra: Record<string, unknown>): { destination: Destination; queueUrl: string } {
    const queueUrl = peer.createQueue(`iam-queue-${++counter}`);
    return { destination: { type: 'SQS', queueUrl, region: REGION, ...extra } as Destination, queueUrl };
  }

  function snsDestination(extra: Record<string, unknown>): { destination: Destination; queueUrl: string } {
    const topicArn = peer.createTopic(`iam-topic-${++counter}`);
    const queueUrl = peer.createQueue(`iam-topic-sink-${counter}`);
    peer.subscribeQueue(topicArn, queueUrl, { raw: true });
    return { destination: { type: 'SNS', topicArn, ...extra } as Destination, queueUrl };
  }

  const send = (destination: Destination) =>
    sendTestNotification(pool, destination, { type: 'Platform' }, { projectKey: 'iam', subscriptionId: 'sub-1', clock, timeoutMs: 5_000 });

  it.each([
    ['SQS', sqsDestination, () => sqsProxy],
    ['SNS', snsDestination, () => snsProxy],
  ] as const)('%s in IAM mode signs with the credentials of the process environment', async (_type, make, proxy) => {
    isolateAwsEnvironment(HERALD_KEY_ID);
    const { destination, queueUrl } = make({ authenticationMode: 'IAM' });
    expect(await send(destination)).toEqual({ status: 'delivered' });
    const [arrived] = await peer.waitForMessages(queueUrl, 1);
    expect(JSON.parse(arrived?.body ?? '{}')).toMatchObject({ notificationType: 'ResourceCreated', resource: { typeId: 'subscription', id: 'sub-1' } });
    expect(proxy().signingAccessKeyIds.length).toBeGreaterThan(0);
    expect(new Set(proxy().signingAccessKeyIds)).toEqual(new Set([HERALD_KEY_ID]));
  });

  it.each([
    ['SQS', sqsDestination, () => sqsProxy],
    ['SNS', snsDestination, () => snsProxy],
  ] as const)("%s in Credentials mode (and without a mode, its default) signs with the destination's keys, not Herald's", async (_type, make, proxy) => {
    isolateAwsEnvironment(HERALD_KEY_ID);
    expect(await send(make({ ...DESTINATION_KEYS, authenticationMode: 'Credentials' }).destination)).toEqual({ status: 'delivered' });
    expect(await send(make(DESTINATION_KEYS).destination)).toEqual({ status: 'delivered' });
    expect(new Set(proxy().signingAccessKeyIds)).toEqual(new Set([DESTINATION_KEYS.accessKey]));
  });

  it.each([
    ['SQS', sqsDestination],
    ['SNS', snsDestination],
  ] as const)('%s in IAM mode where the chain finds no credentials: a configuration failure, nothing sent', async (_type, make) => {
    isolateAwsEnvironment(undefined);
    const { destination, queueUrl } = make({ authenticationMode: 'IAM' });
    expect(await send(destination)).toMatchObject({ status: 'failed', failure: { class: 'configuration', code: 'CredentialsProviderError' } });
    expect(await peer.receiveAll(queueUrl)).toEqual([]);
    expect([...sqsProxy.signingAccessKeyIds, ...snsProxy.signingAccessKeyIds]).toEqual([]);
  });
});
