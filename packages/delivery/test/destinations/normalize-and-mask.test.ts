import { describe, expect, it } from 'vitest';
import { AesGcmSecretBox, answerDestination, createDestinationEnvironment, DestinationPool, normalizeDestination } from '../../src/index.js';
import { maskDestinationSecrets } from '../../src/destinations/mask.js';
import { destinationKey } from '../../src/destinations/pool.js';
import { DESTINATIONS } from '../../src/destinations/registry.js';
import { parseServiceBusConnectionString } from '../../src/destinations/service-bus/connection-string.js';
import { DESTINATION_TYPES } from '@herald/model';

const SB_CONNECTION = 'Endpoint=sb://shop.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey=abcdEFGHijklMNOP0123456789+/xyz=;EntityPath=orders';

describe('normalizeDestination (§2.4)', () => {
  it('accepts every kind with its fields and keeps only known fields', () => {
    const inputs = [
      {
        type: 'SQS',
        queueUrl: 'https://sqs.eu-west-1.amazonaws.com/123456789012/q',
        accessKey: 'AKIA1',
        accessSecret: 's3cr3t',
        region: 'eu-west-1',
        extra: 1,
      },
      { type: 'SNS', topicArn: 'arn:aws:sns:eu-west-1:123456789012:t', accessKey: 'AKIA1', accessSecret: 's3cr3t' },
      { type: 'EventBridge', region: 'eu-west-1', accountId: '123456789012' },
      { type: 'ProviderBServiceBus', connectionString: SB_CONNECTION },
      { type: 'EventGrid', uri: 'https://topic.westeurope-1.eventgrid.azure.net/api/events', accessKey: 'key' },
      { type: 'ProviderCPubSub', projectId: 'p', topic: 't' },
    ];
    for (const input of inputs) {
      const result = normalizeDestination(input);
      expect(result).toMatchObject({ ok: true, destination: { type: input.type } });
      if (result.ok) expect(result.destination).not.toHaveProperty('extra');
    }
  });

  it('maps the SDK aliases AzureServiceBus and GoogleCloudPubSub', () => {
    expect(normalizeDestination({ type: 'AzureServiceBus', connectionString: SB_CONNECTION })).toMatchObject({
      ok: true,
      destination: { type: 'ProviderBServiceBus' },
    });
    expect(normalizeDestination({ type: 'GoogleCloudPubSub', projectId: 'p', topic: 't' })).toMatchObject({
      ok: true,
      destination: { type: 'ProviderCPubSub' },
    });
  });

  it('reports every problem with a clear message', () => {
    expect(normalizeDestination({ type: 'Kafka' })).toEqual({
      ok: false,
      errors: [`destination.type: must be one of ${DESTINATION_TYPES.join(', ')} (got "Kafka").`],
    });
    expect(normalizeDestination({ type: 'SQS', queueUrl: 'not a url', region: '' })).toEqual({
      ok: false,
      errors: [
        "destination.queueUrl: 'not a url' is not an http(s) URL.",
        'destination.accessKey: a non-empty string is required.',
        'destination.accessSecret: a non-empty string is required.',
        'destination.region: a non-empty string is required.',
      ],
    });
    expect(normalizeDestination(null)).toEqual({ ok: false, errors: ['destination: an object with a type is required.'] });
  });

  it('SQS and SNS: authenticationMode Credentials (the default, keys required) or IAM (no keys), always set', () => {
    const queue = { type: 'SQS', queueUrl: 'https://sqs.eu-west-1.amazonaws.com/123456789012/q', region: 'eu-west-1' };
    const topic = { type: 'SNS', topicArn: 'arn:aws:sns:eu-west-1:123456789012:t' };
    expect(normalizeDestination({ ...queue, authenticationMode: 'IAM' })).toEqual({ ok: true, destination: { ...queue, authenticationMode: 'IAM' } });
    expect(normalizeDestination({ ...topic, authenticationMode: 'IAM', accessKey: null })).toEqual({
      ok: true,
      destination: { ...topic, authenticationMode: 'IAM' },
    });
    const keys = { accessKey: 'AKIA1', accessSecret: 's3cr3t' };
    for (const input of [
      { ...queue, ...keys },
      { ...queue, ...keys, authenticationMode: 'Credentials' },
      { ...queue, ...keys, authenticationMode: null },
    ]) {
      expect(normalizeDestination(input)).toEqual({ ok: true, destination: { ...queue, ...keys, authenticationMode: 'Credentials' } });
    }
    expect(normalizeDestination({ ...topic, authenticationMode: 'Credentials' })).toEqual({
      ok: false,
      errors: ['destination.accessKey: a non-empty string is required.', 'destination.accessSecret: a non-empty string is required.'],
    });
  });

  it('SQS and SNS: keys beside IAM, or an unknown mode, are refused without echoing the keys', () => {
    const queue = { type: 'SQS', queueUrl: 'https://sqs.eu-west-1.amazonaws.com/123456789012/q', region: 'eu-west-1' };
    const withKeys = normalizeDestination({ ...queue, authenticationMode: 'IAM', accessKey: 'AKIA-SHOWN-NOWHERE', accessSecret: 'hunter2' });
    expect(withKeys).toEqual({
      ok: false,
      errors: ['destination.accessKey: must not be set with authenticationMode IAM.', 'destination.accessSecret: must not be set with authenticationMode IAM.'],
    });
    expect(normalizeDestination({ type: 'SNS', topicArn: 'arn:aws:sns:eu-west-1:1:t', authenticationMode: 'iam' })).toEqual({
      ok: false,
      errors: ['destination.authenticationMode: must be one of Credentials, IAM (got "iam").'],
    });
  });

  it('EventBridge: ignores a `source` in the draft (it is answered, derived from the subscription)', () => {
    expect(normalizeDestination({ type: 'EventBridge', region: 'eu-west-1', accountId: '123456789012', source: 'aws.partner/x/y' })).toEqual({
      ok: true,
      destination: { type: 'EventBridge', region: 'eu-west-1', accountId: '123456789012' },
    });
  });

  it('rejects a FIFO queue URL, a bad topic ARN, a bad account id', () => {
    const fifo = normalizeDestination({
      type: 'SQS',
      queueUrl: 'https://sqs.eu-west-1.amazonaws.com/1/q.fifo',
      accessKey: 'a',
      accessSecret: 'b',
      region: 'r',
    });
    expect(fifo).toEqual({ ok: false, errors: ['destination.queueUrl: FIFO queues are not supported.'] });
    expect(normalizeDestination({ type: 'SNS', topicArn: 'arn:aws:sqs:x', accessKey: 'a', accessSecret: 'b' }).ok).toBe(false);
    expect(normalizeDestination({ type: 'EventBridge', region: 'r', accountId: '12' }).ok).toBe(false);
  });

  it('rejects credentials inside a queue URL or an Event Grid URI (URLs are answered unmasked)', () => {
    const sqs = normalizeDestination({
      type: 'SQS',
      queueUrl: 'https://user:hunter2@sqs.eu-west-1.amazonaws.com/1/q',
      accessKey: 'a',
      accessSecret: 'b',
      region: 'r',
    });
    expect(sqs).toEqual({ ok: false, errors: [expect.stringMatching(/^destination\.queueUrl: must not contain credentials/)] });
    const grid = normalizeDestination({ type: 'EventGrid', uri: 'https://key@topic.westeurope-1.eventgrid.azure.net/api/events', accessKey: 'abcdefgh' });
    expect(grid).toEqual({ ok: false, errors: [expect.stringMatching(/^destination\.uri: must not contain credentials/)] });
  });

  it('reads only the known keys of a connection string, whatever other segments it carries', () => {
    expect(parseServiceBusConnectionString(`constructor=x;toString=y;${SB_CONNECTION}`)).toEqual({
      endpoint: 'sb://shop.servicebus.windows.net/',
      sharedAccessKeyName: 'send',
      sharedAccessKey: 'abcdEFGHijklMNOP0123456789+/xyz=',
      entityPath: 'orders',
    });
  });

  it('rejects a Service Bus connection string without EntityPath', () => {
    const result = normalizeDestination({ type: 'ProviderBServiceBus', connectionString: SB_CONNECTION.replace(';EntityPath=orders', '') });
    expect(result).toEqual({ ok: false, errors: ['destination.connectionString: EntityPath is missing; it must name the queue or topic.'] });
  });
});

describe('maskDestinationSecrets (§2.4 "partially hidden on retrieval")', () => {
  it('keeps the first 4 characters of each secret', () => {
    expect(maskDestinationSecrets({ type: 'SQS', queueUrl: 'u', accessKey: 'AKIAXYZ', accessSecret: 'wJalrXUtnFEMI', region: 'r' })).toEqual({
      type: 'SQS',
      queueUrl: 'u',
      accessKey: 'AKIAXYZ',
      accessSecret: 'wJal****',
      region: 'r',
    });
    expect(maskDestinationSecrets({ type: 'EventGrid', uri: 'u', accessKey: 'abcdefgh' })).toMatchObject({ accessKey: 'abcd****' });
    expect(maskDestinationSecrets({ type: 'ProviderBServiceBus', connectionString: SB_CONNECTION })).toEqual({
      type: 'ProviderBServiceBus',
      connectionString: 'Endpoint=sb://shop.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey=abcd****;EntityPath=orders',
    });
  });

  it('an IAM destination has no secret: answered as it is', () => {
    const iam = { type: 'SNS', topicArn: 'arn:aws:sns:eu-west-1:1:t', authenticationMode: 'IAM' } as const;
    expect(maskDestinationSecrets(iam)).toEqual(iam);
  });

  it('is idempotent and hides short secrets entirely', () => {
    const once = maskDestinationSecrets({ type: 'SNS', topicArn: 't', accessKey: 'k', accessSecret: 'abc' });
    expect(once).toMatchObject({ accessSecret: '****' });
    expect(maskDestinationSecrets(once)).toEqual(once);
  });

  it('hides a value still sealed (opened with another HERALD_SECRET_KEY) entirely, a whole Service Bus connection string too', () => {
    const sealed = new AesGcmSecretBox('an-old-secret-key-of-enough-length');
    const connectionString = sealed.seal(SB_CONNECTION);
    expect(maskDestinationSecrets({ type: 'ProviderBServiceBus', connectionString })).toEqual({ type: 'ProviderBServiceBus', connectionString: 'enc:****' });
    expect(maskDestinationSecrets({ type: 'EventGrid', uri: 'u', accessKey: sealed.seal('abcdefgh') })).toMatchObject({ accessKey: 'enc:****' });
  });
});

describe('answerDestination: what every API answer shows', () => {
  const context = { projectKey: 'shop', subscriptionId: 'sub-1', eventBridgePartnerName: 'herald' };

  it('answers authenticationMode, Credentials for destinations stored before the field existed, with the secret masked', () => {
    const stored = { type: 'SQS', queueUrl: 'u', accessKey: 'AKIAXYZ', accessSecret: 'wJalrXUtnFEMI', region: 'r' } as const;
    expect(answerDestination(stored, context)).toEqual({ ...stored, accessSecret: 'wJal****', authenticationMode: 'Credentials' });
    const iam = { type: 'SQS', queueUrl: 'u', region: 'r', authenticationMode: 'IAM' } as const;
    expect(answerDestination(iam, context)).toEqual(iam);
  });

  it("answers an EventBridge destination's partner event source, named after the subscription", () => {
    expect(answerDestination({ type: 'EventBridge', region: 'eu-west-1', accountId: '123456789012' }, context)).toEqual({
      type: 'EventBridge',
      region: 'eu-west-1',
      accountId: '123456789012',
      source: 'aws.partner/herald/shop/sub-1',
    });
  });

  it('leaves the other kinds to the masking alone', () => {
    expect(answerDestination({ type: 'ProviderCPubSub', projectId: 'p', topic: 't' }, context)).toEqual({
      type: 'ProviderCPubSub',
      projectId: 'p',
      topic: 't',
    });
    expect(answerDestination({ type: 'EventGrid', uri: 'u', accessKey: 'abcdefgh' }, context)).toEqual({ type: 'EventGrid', uri: 'u', accessKey: 'abcd****' });
  });
});

describe('registry and pool', () => {
  it('has a descriptor for every destination type, under its own name', () => {
    expect(Object.keys(DESTINATIONS).sort()).toEqual([...DESTINATION_TYPES].sort());
    for (const [type, descriptor] of Object.entries(DESTINATIONS)) expect(descriptor.type).toBe(type);
  });

  it('shares one adapter per destination configuration, whatever the key order', async () => {
    const pool = new DestinationPool(createDestinationEnvironment());
    const a = pool.get({ type: 'ProviderCPubSub', projectId: 'p', topic: 't' });
    const b = pool.get({ topic: 't', projectId: 'p', type: 'ProviderCPubSub' } as const);
    const c = pool.get({ type: 'ProviderCPubSub', projectId: 'p', topic: 'other' });
    expect(a).toBe(b);
    expect(c).not.toBe(a);
    expect(pool.size).toBe(2);
    expect(destinationKey({ type: 'ProviderCPubSub', projectId: 'p', topic: 't' })).not.toContain('p');
    await pool.closeAll();
    expect(pool.size).toBe(0);
  });

  it('closes an adapter only once it has been idle for ten minutes, never while it is used', async () => {
    let now = 0;
    const pool = new DestinationPool(createDestinationEnvironment(), DESTINATIONS, () => now);
    const shared = { type: 'ProviderCPubSub', projectId: 'p', topic: 'shared' } as const;
    const abandoned = { type: 'ProviderCPubSub', projectId: 'p', topic: 'abandoned' } as const;
    const first = pool.get(shared);
    pool.get(abandoned);
    // Used every few minutes: kept, the same client each time.
    for (let minute = 4; minute <= 16; minute += 4) {
      now = minute * 60_000;
      expect(pool.get(shared)).toBe(first);
    }
    // The other one was last asked for 16 minutes ago: closed and forgotten.
    expect(pool.size).toBe(1);
    const again = pool.get(abandoned);
    expect(pool.size).toBe(2);
    expect(pool.get(shared)).toBe(first);
    expect(again).not.toBeUndefined();
    await pool.closeAll();
  });
});
