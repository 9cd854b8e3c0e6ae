import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSqsPeer, type SqsPeer } from '@herald/testkit';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { callerWith, type Json } from '../carts/commerce.js';

/**
 * §6.2 CloudEvents: `dataref` is the "URI from which the message can be retrieved, messages only,
 * if messages are enabled". With messages disabled (project action changeMessagesConfiguration
 * enabled=false) a message still reaches subscriptions (§2.4) but is not kept for the Messages
 * API, so its event must not point at it; with messages enabled it does, and the link answers.
 */
const ENABLED = 'dataref-enabled';
const DISABLED = 'dataref-disabled';
const REGION = 'us-east-1';

describe('CloudEvents dataref follows the project messages setting', { timeout: 60_000 }, () => {
  let sqs: SqsPeer;
  let gateway: TestGateway;

  beforeAll(async () => {
    sqs = await startSqsPeer({ region: REGION });
    gateway = await startTestGateway({
      projects: [ENABLED, DISABLED],
      delivery: { environment: { endpoints: { sqs: sqs.endpoint }, timeouts: { sendMs: 10_000 } } },
    });
  });

  afterAll(async () => {
    await gateway?.close();
    await sqs?.stop();
  });

  /** Subscribes a queue to StoreCreated in CloudEvents, creates a store, answers its message event. */
  async function storeCreatedEvent(projectKey: string): Promise<{ event: Json; lookup: { status: number } }> {
    const api = await callerWith(gateway, projectKey, ['manage_subscriptions', 'manage_stores', 'view_messages']);
    const queueUrl = sqs.createQueue(`${projectKey}-events`);
    await api.ok(
      `/${projectKey}/subscriptions`,
      {
        key: 'dataref',
        destination: { type: 'SQS', queueUrl, region: REGION, accessKey: 'AKIADATAREF000000001', accessSecret: 'dataref-secret-key-01' },
        format: { type: 'CloudEvents', cloudEventsVersion: '1.0' },
        messages: [{ resourceTypeId: 'store', types: ['StoreCreated'] }],
      },
      201,
    );
    await api.ok(`/${projectKey}/stores`, { key: 'berlin', name: { en: 'Berlin' }, languages: ['en'] }, 201);

    // The test notification plus the StoreCreated message.
    await sqs.waitForMessages(queueUrl, 2, 15_000);
    const events = (await sqs.receiveAll(queueUrl)).map((message) => JSON.parse(message.body) as Json);
    const event = events.find((e) => (e.data as Json).notificationType === 'Message') as Json;
    expect(event).toMatchObject({ type: 'com.commercetools.store.message.StoreCreated' });
    const lookup = await api.get(`/${projectKey}/messages/${(event.data as Json).id as string}`);
    return { event, lookup };
  }

  it('points message events at the Messages API while messages are enabled', async () => {
    const { event, lookup } = await storeCreatedEvent(ENABLED);
    expect(event.dataref).toBe(`/${ENABLED}/messages/${(event.data as Json).id as string}`);
    expect(lookup.status).toBe(200);
  });

  it('leaves dataref out of message events while messages are disabled, since the message cannot be retrieved', async () => {
    const settings = await callerWith(gateway, DISABLED, ['manage_project_settings']);
    const project = await settings.read(`/${DISABLED}`);
    const disabled = await settings.post(`/${DISABLED}`, {
      version: project.version,
      actions: [{ action: 'changeMessagesConfiguration', messagesConfiguration: { enabled: false } }],
    });
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);

    const { event, lookup } = await storeCreatedEvent(DISABLED);
    expect(lookup.status).toBe(404);
    expect(event).not.toHaveProperty('dataref');
    // Only dataref: the other message attributes stay.
    expect(event).toMatchObject({ sequence: '1', sequencetype: 'Integer', subject: (event.data as Json).resource.id });
  });
});
