/**
 * Helpers for the subscriptions acceptance tests (issue 5): destinations pointing at the testkit's
 * local peers, reading what a destination received, the public health endpoint, and waiting for
 * the delivery engine to reach a state (a polled condition with a deadline, never a fixed sleep).
 */
import { parseWorkerConfig } from '@herald/delivery';
import { startSqsPeer, type SqsPeer } from '@herald/testkit';
import { expect, vi } from 'vitest';
import { startTestDelivery, startTestGateway, stopTestDelivery, type TestDelivery, type TestGateway } from '../support/gateway.js';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';

export type { Json };

/** How long a test waits for an arrival or a state: generous, as CI machines are busy. */
export const WAIT_MS = 15_000;

/** fauxqs's region; SQS clients must use it (it is part of a queue's identity). */
export const REGION = 'us-east-1';

/** Credentials of SQS/SNS destinations: fauxqs accepts any, the API must never echo the secret. */
export const AWS_ACCESS_KEY = 'AKIAHERALDSUBSCRIPT1';
export const AWS_ACCESS_SECRET = 'sub-secret-Zq8pL2vX9mW4rT7yK1nB';

/** Herald's own EventBridge partner credentials (the peer checks the access key id). */
export const EVENTBRIDGE_CREDENTIALS = { accessKeyId: 'AKIAHERALDPARTNER001', secretAccessKey: 'herald-partner-secret' };

/** A gateway whose test notifications go to a fresh SQS peer (fauxqs); `stop` ends both. */
export async function gatewayWithSqsPeer(projects: string[]): Promise<{ sqs: SqsPeer; gateway: TestGateway; stop(): Promise<void> }> {
  const sqs = await startSqsPeer({ region: REGION });
  const gateway = await startTestGateway({
    projects,
    config: { delivery: parseWorkerConfig({ HERALD_SQS_ENDPOINT: sqs.endpoint, HERALD_ALLOW_INSECURE_DESTINATIONS: 'true' }) },
  });
  return {
    sqs,
    gateway,
    async stop() {
      await gateway.close();
      await sqs.stop();
    },
  };
}

export function sqsDestination(queueUrl: string, secret = AWS_ACCESS_SECRET): Json {
  return { type: 'SQS', queueUrl, region: REGION, accessKey: AWS_ACCESS_KEY, accessSecret: secret };
}

export function snsDestination(topicArn: string): Json {
  return { type: 'SNS', topicArn, accessKey: AWS_ACCESS_KEY, accessSecret: AWS_ACCESS_SECRET };
}

export const CLOUD_EVENTS = { type: 'CloudEvents', cloudEventsVersion: '1.0' } as const;

/** `GET /{projectKey}/subscriptions/{id}/health` without any token (§4.2: publicly visible). */
export async function healthOf(gateway: TestGateway, projectKey: string, id: string): Promise<{ status: number; body: string }> {
  const response = await gateway.app.inject({ method: 'GET', url: `/${projectKey}/subscriptions/${id}/health` });
  return { status: response.statusCode, body: response.body };
}

/**
 * Waits until the condition holds: the engine works in the background (router and sender loops),
 * so its effects are observed through the API until they show, or the deadline fails the test.
 */
export function eventually<T>(condition: () => Promise<T>, timeoutMs = WAIT_MS): Promise<T> {
  return vi.waitFor(condition, { timeout: timeoutMs, interval: 20 });
}

export async function waitForHealth(gateway: TestGateway, projectKey: string, id: string, status: number, timeoutMs?: number): Promise<void> {
  await eventually(async () => expect((await healthOf(gateway, projectKey, id)).status).toBe(status), timeoutMs);
}

/** The subscription as the API shows it (status included). */
export function subscriptionOf(caller: Caller, projectKey: string, id: string): Promise<Json> {
  return caller.read(`/${projectKey}/subscriptions/${id}`);
}

/** A 4xx/5xx answer's first error, with the status checked. */
export function expectError(answer: { status: number; body: Json }, status: number, code: string): Json {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body.statusCode).toBe(status);
  const first = (answer.body.errors as Json[] | undefined)?.[0];
  expect(first?.code, JSON.stringify(answer.body)).toBe(code);
  return first as Json;
}

/**
 * §2.4: secrets are partially hidden in every response. The full value must appear nowhere in the
 * response text, and the field shows a recognisable prefix with the rest hidden.
 */
export function expectMasked(body: unknown, secret: string): void {
  const text = JSON.stringify(body);
  expect(text).not.toContain(secret);
  expect(text).toContain(`${secret.slice(0, 4)}****`);
}

/** What an SQS queue (or an SNS topic's queue) received, parsed; SNS envelopes are opened. */
export function sqsDocuments(messages: readonly { body: string }[]): Json[] {
  return messages.map((message) => {
    const body = JSON.parse(message.body) as Json;
    return body.Type === 'Notification' && typeof body.Message === 'string' ? (JSON.parse(body.Message) as Json) : body;
  });
}

/** The payload inside a delivered document: CloudEvents `data`, or the Platform payload itself. */
export function payloadOf(document: Json): Json {
  return document.specversion === '1.0' ? (document.data as Json) : document;
}

/** A compact, order-free label per delivered payload, to compare what arrived with what should. */
export function label(document: Json): string {
  const payload = payloadOf(document);
  const resource = payload.resource as { typeId: string; id: string };
  if (payload.notificationType === 'Message') return `${resource.typeId}:${resource.id}:Message:${payload.type}:${payload.sequenceNumber}`;
  return `${resource.typeId}:${resource.id}:${payload.notificationType}:${payload.version}`;
}

export function labels(documents: readonly Json[]): string[] {
  return documents.map(label).sort();
}

/** The §4.2 test notification: `ResourceCreated` of the subscription itself. */
export function expectTestNotification(document: Json, projectKey: string, subscription: Json): void {
  expect(payloadOf(document)).toMatchObject({
    notificationType: 'ResourceCreated',
    projectKey,
    resource: { typeId: 'subscription', id: subscription.id },
    version: 1,
  });
  // As in every change notification: the subscription's key, or `{}` without one.
  expect(payloadOf(document).resourceUserProvidedIdentifiers).toEqual(subscription.key === undefined ? {} : { key: subscription.key });
}

/**
 * A gateway whose outbox nobody routes yet, as during a worker outage: test notifications reach
 * the SQS peer, events wait in the outbox until `startRouting()` starts a worker, and `routed(ids)`
 * waits until those subscriptions have nothing pending. `caller` has manage_subscriptions and
 * manage_stores.
 */
export interface RoutingOutage {
  sqs: SqsPeer;
  gateway: TestGateway;
  caller: Caller;
  startRouting(): void;
  routed(subscriptionIds: readonly string[]): Promise<void>;
  stop(): Promise<void>;
}

export async function routingOutage(projectKey: string): Promise<RoutingOutage> {
  const { sqs, gateway, stop } = await gatewayWithSqsPeer([projectKey]);
  const caller = await callerWith(gateway, projectKey, ['manage_subscriptions', 'manage_stores']);
  let delivery: TestDelivery | undefined;
  return {
    sqs,
    gateway,
    caller,
    startRouting() {
      delivery ??= startTestDelivery(gateway.db, { environment: { endpoints: { sqs: sqs.endpoint } } });
    },
    async routed(subscriptionIds) {
      for (const id of subscriptionIds) {
        await eventually(async () => {
          expect(await caller.read(`/${projectKey}/subscriptions/${id}/delivery-status`)).toMatchObject({ pendingCount: 0 });
        });
      }
    },
    async stop() {
      await stopTestDelivery(delivery);
      await stop();
    },
  };
}

/**
 * A fresh queue subscribed to the messages and change notifications of `resourceTypeId`, with the
 * subscription's test notification already drained: what every resource's delivery test starts from.
 */
export async function subscribedQueue(sqs: SqsPeer, caller: Caller, projectKey: string, resourceTypeId: string): Promise<string> {
  const queue = sqs.createQueue(`${resourceTypeId}-events-${Math.random().toString(36).slice(2, 8)}`);
  await caller.ok(`/${projectKey}/subscriptions`, { destination: sqsDestination(queue), messages: [{ resourceTypeId }], changes: [{ resourceTypeId }] }, 201);
  await sqs.waitForMessages(queue, 1, WAIT_MS); // the test notification
  await sqs.receiveAll(queue);
  return queue;
}

/**
 * Receives from `queue` until `count` deliveries about the resource `resourceId` arrived (deliveries
 * about other resources are dropped) and returns them, oldest first. Counting what arrived, not
 * what the peer was sent, so the test notification or another resource's events cannot end the wait
 * early; fails after `timeoutMs` with what did arrive.
 */
export async function deliveriesAbout(sqs: SqsPeer, queue: string, resourceId: string, count: number, timeoutMs = WAIT_MS): Promise<Json[]> {
  const about: Json[] = [];
  const deadline = Date.now() + timeoutMs;
  while (about.length < count && Date.now() < deadline) {
    const documents = sqsDocuments(await sqs.receiveAll(queue));
    about.push(...documents.filter((document) => (payloadOf(document).resource as { id?: string } | undefined)?.id === resourceId));
    if (about.length < count) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(labels(about), `deliveries about ${resourceId} within ${timeoutMs} ms`).toHaveLength(count);
  return about;
}
