import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpsGetter, SNS_HOST_PATTERN, type HttpsGet, type PushAuthenticationOptions } from '../../../src/index.js';
import { messagePayload } from '../../support/fixtures.js';
import { makeTestCertificates, signSnsMessage, type TestCertificates } from '../../support/push-auth-keys.js';
import {
  authenticatedEndpoints,
  authenticatedNodeEndpoint,
  errorCodeOf,
  startHttpsPeer,
  text,
  type AuthenticatedEndpoint,
  type RecordingServer,
} from '../../support/push-auth-servers.js';

const TOPIC = 'arn:aws:sns:us-east-1:123456789012:herald-events';
const CERT_PATH = '/SimpleNotificationService-test.pem';

let certificates: TestCertificates;
let peer: RecordingServer;

beforeAll(async () => {
  certificates = await makeTestCertificates();
  peer = await startHttpsPeer(certificates, {
    [CERT_PATH]: text(certificates.signingCertPem),
    '/not-a-certificate.pem': text('hello'),
    '/confirm': text('<ConfirmSubscriptionResponse/>', 'text/xml'),
  });
});
afterAll(async () => {
  await peer?.close();
});

/** SNS pointed at the loopback peer: the host pattern widened to 127.0.0.1, the peer's CA trusted. */
function loopbackSns(overrides: Partial<NonNullable<PushAuthenticationOptions['sns']>> = {}): PushAuthenticationOptions {
  return { sns: { topicArns: [TOPIC], hostPattern: /^127\.0\.0\.1$/, httpsGet: httpsGetter({ ca: certificates.caPem }), ...overrides } };
}

function notification(sequenceNumber: number, id: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    Type: 'Notification',
    MessageId: `sns-${id}-${sequenceNumber}`,
    TopicArn: TOPIC,
    Message: JSON.stringify(messagePayload(sequenceNumber, { id })),
    Timestamp: '2025-01-01T00:00:01.000Z',
    UnsubscribeURL: `${peer.origin}/unsubscribe`,
    ...extra,
  };
}

function confirmation(type: 'SubscriptionConfirmation' | 'UnsubscribeConfirmation', token: string): Record<string, string> {
  return {
    Type: type,
    MessageId: `confirm-${token}`,
    Token: token,
    TopicArn: TOPIC,
    Message: `You have chosen to subscribe to the topic ${TOPIC}.\nTo confirm the subscription, visit the SubscribeURL included in this message.`,
    SubscribeURL: `${peer.origin}/confirm?Action=ConfirmSubscription&TopicArn=${encodeURIComponent(TOPIC)}&Token=${token}`,
    Timestamp: '2025-01-01T00:00:00.000Z',
  };
}

/** POSTed as SNS does: text/plain JSON with the x-amz-sns-* headers. */
function push(url: string, message: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'text/plain; charset=UTF-8',
      'x-amz-sns-message-type': String(message.Type),
      'x-amz-sns-message-id': String(message.MessageId),
      'x-amz-sns-topic-arn': String(message.TopicArn),
      ...headers,
    },
    body: JSON.stringify(message),
  });
}

const signed = (message: Record<string, string>, version: '1' | '2' = '2') =>
  signSnsMessage(message, certificates.signingKey, `${peer.origin}${CERT_PATH}`, version);
const idsOf = (endpoint: AuthenticatedEndpoint) => endpoint.handled.map((delivery) => delivery.payload.resource.id);

describe.each(['node:http handler', 'Fastify plugin'])('SNS over HTTPS, %s', (frontEnd) => {
  let endpoint: AuthenticatedEndpoint;
  let others: AuthenticatedEndpoint[];

  beforeAll(async () => {
    const endpoints = await authenticatedEndpoints(loopbackSns());
    endpoint = endpoints.find((candidate) => candidate.name === frontEnd) as AuthenticatedEndpoint;
    others = endpoints.filter((candidate) => candidate !== endpoint);
  });
  afterAll(async () => {
    for (const each of [endpoint, ...others]) await each.close();
  });

  it('hands a notification signed with SignatureVersion 1 (SHA1withRSA) or 2 (SHA256withRSA) to the handler', async () => {
    const v1 = await push(endpoint.url, signed(notification(1, 'signed'), '1'));
    const v2 = await push(endpoint.url, signed(notification(2, 'signed', { Subject: 'with a subject' }), '2'));
    expect([v1.status, v2.status]).toEqual([204, 204]);
    const deliveries = endpoint.handled.filter((delivery) => delivery.payload.resource.id === 'signed');
    expect(deliveries.map((delivery) => delivery.origin)).toMatchObject([
      { source: 'http', envelope: 'sns', transportMessageId: 'sns-signed-1' },
      { source: 'http', envelope: 'sns', transportMessageId: 'sns-signed-2' },
    ]);
  });

  it('answers 403 to a message changed after signing, and 403 to one signed with another key', async () => {
    const tampered = { ...signed(notification(1, 'tampered')), Message: JSON.stringify(messagePayload(9, { id: 'tampered' })) };
    const forged = signSnsMessage(notification(1, 'forged'), certificates.forgerKey, `${peer.origin}${CERT_PATH}`);
    const subjectAdded = { ...signed(notification(1, 'tampered')), Subject: 'added later' };
    for (const message of [tampered, forged, subjectAdded]) {
      const response = await push(endpoint.url, message);
      expect(response.status).toBe(403);
      expect(await errorCodeOf(response)).toBe('Unauthorized');
    }
    expect(idsOf(endpoint)).not.toContain('tampered');
    expect(idsOf(endpoint)).not.toContain('forged');
  });

  it('answers 401 to an unsigned SNS message (raw delivery is not signed) and to a request with no credentials at all', async () => {
    const unsigned = await push(endpoint.url, notification(1, 'unsigned'), { 'x-amz-sns-rawdelivery': 'true' });
    const plain = await fetch(endpoint.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(messagePayload(1, { id: 'unsigned' })),
    });
    for (const response of [unsigned, plain]) {
      expect(response.status).toBe(401);
      expect(await errorCodeOf(response)).toBe('invalid_token');
    }
    expect(idsOf(endpoint)).not.toContain('unsigned');
  });

  it('refuses topics not configured, and a Type header that differs from the signed Type', async () => {
    const otherTopic = signed({ ...notification(1, 'other-topic'), TopicArn: 'arn:aws:sns:us-east-1:999999999999:someone-else' });
    const mislabelled = await push(endpoint.url, signed(notification(1, 'other-topic')), { 'x-amz-sns-message-type': 'SubscriptionConfirmation' });
    expect([(await push(endpoint.url, otherTopic)).status, mislabelled.status]).toEqual([403, 403]);
    expect(idsOf(endpoint)).not.toContain('other-topic');
  });

  it('hands on only the signed fields: a payload or CloudEvents headers added beside them are not parsed', async () => {
    const message = { ...signed(notification(5, 'smuggle')), notificationType: 'Message', specversion: '1.0' };
    const response = await push(endpoint.url, message, { 'ce-specversion': '1.0', 'ce-id': 'x', 'ce-type': 'x', 'ce-source': 'x' });
    expect(response.status).toBe(204);
    const delivery = endpoint.handled.find((candidate) => candidate.payload.resource.id === 'smuggle');
    expect(delivery?.origin).toMatchObject({ envelope: 'sns', cloudEventsMode: undefined });
    expect(delivery?.payload).toMatchObject({ notificationType: 'Message', sequenceNumber: 5 });
  });

  it('confirms a signed SubscriptionConfirmation by visiting SubscribeURL, without calling the handler', async () => {
    const handledBefore = endpoint.handled.length;
    const response = await push(endpoint.url, signed(confirmation('SubscriptionConfirmation', `ok-${frontEnd.length}`)));
    expect(response.status).toBe(200);
    expect(peer.requests).toContain(`/confirm?Action=ConfirmSubscription&TopicArn=${encodeURIComponent(TOPIC)}&Token=ok-${frontEnd.length}`);
    expect(endpoint.handled.length).toBe(handledBefore);
  });

  it('does not visit SubscribeURL of a forged confirmation, and only acknowledges an UnsubscribeConfirmation', async () => {
    const forged = signSnsMessage(confirmation('SubscriptionConfirmation', 'forged'), certificates.forgerKey, `${peer.origin}${CERT_PATH}`);
    expect((await push(endpoint.url, forged)).status).toBe(403);
    const unsubscribed = await push(endpoint.url, signed(confirmation('UnsubscribeConfirmation', 'gone')));
    expect(unsubscribed.status).toBe(200);
    expect(peer.requests.some((path) => path.includes('Token=forged') || path.includes('Token=gone'))).toBe(false);
  });
});

describe('SNS certificates', () => {
  const endpoints: AuthenticatedEndpoint[] = [];
  const start = async (authentication: PushAuthenticationOptions) => {
    const endpoint = await authenticatedNodeEndpoint(authentication);
    endpoints.push(endpoint);
    return endpoint;
  };
  afterAll(async () => {
    for (const endpoint of endpoints) await endpoint.close();
  });

  it('fetches a signing certificate once for many messages', async () => {
    const endpoint = await start(loopbackSns({ httpsGet: httpsGetter({ ca: certificates.caPem }) }));
    const fetchesBefore = peer.requests.filter((path) => path === CERT_PATH).length;
    for (let sequenceNumber = 1; sequenceNumber <= 3; sequenceNumber++)
      expect((await push(endpoint.url, signed(notification(sequenceNumber, 'cached')))).status).toBe(204);
    expect(peer.requests.filter((path) => path === CERT_PATH).length - fetchesBefore).toBe(1);
  });

  it('with the default host pattern, fetches nothing from a host that is not sns.<region>.amazonaws.com', async () => {
    const endpoint = await start({ sns: { topicArns: [TOPIC], httpsGet: httpsGetter({ ca: certificates.caPem }) } });
    const requestsBefore = peer.requests.length;
    const response = await push(endpoint.url, signed(notification(1, 'foreign-host')));
    expect(response.status).toBe(403);
    expect(peer.requests.length).toBe(requestsBefore);
    expect(endpoint.handled).toEqual([]);
  });

  it('the default pattern takes SNS hosts of every partition and nothing that only starts like one', () => {
    for (const host of [
      'sns.us-east-1.amazonaws.com',
      'sns.eu-central-2.amazonaws.com',
      'sns.cn-north-1.amazonaws.com.cn',
      'sns.us-gov-west-1.amazonaws.com',
    ]) {
      expect(SNS_HOST_PATTERN.test(host)).toBe(true);
    }
    for (const host of [
      'sns.us-east-1.amazonaws.com.evil.example',
      'evil.example',
      'sns.amazonaws.com',
      'xsns.us-east-1.amazonaws.com',
      'sns.us-east-1.amazonaws.co',
      'sqs.us-east-1.amazonaws.com',
    ]) {
      expect(SNS_HOST_PATTERN.test(host)).toBe(false);
    }
  });

  it('with the default host pattern, verifies a certificate from an SNS host (served here by the loopback peer)', async () => {
    const asked: string[] = [];
    const toPeer = httpsGetter({ ca: certificates.caPem });
    // Resolves sns.us-east-1.amazonaws.com to the loopback peer, the way a hosts file would.
    const httpsGet: HttpsGet = (url) => (asked.push(url.href), toPeer(new URL(`${url.pathname}${url.search}`, peer.origin)));
    const endpoint = await start({ sns: { topicArns: [TOPIC], httpsGet } });
    const genuine = signSnsMessage(notification(1, 'sns-host'), certificates.signingKey, `https://sns.us-east-1.amazonaws.com${CERT_PATH}`);
    const lookalike = signSnsMessage(notification(2, 'sns-host'), certificates.signingKey, `https://sns.us-east-1.amazonaws.com.evil.example${CERT_PATH}`);
    const plainHttp = signSnsMessage(notification(3, 'sns-host'), certificates.signingKey, `http://sns.us-east-1.amazonaws.com${CERT_PATH}`);
    expect([(await push(endpoint.url, genuine)).status, (await push(endpoint.url, lookalike)).status, (await push(endpoint.url, plainHttp)).status]).toEqual([
      204, 403, 403,
    ]);
    expect(asked).toEqual([`https://sns.us-east-1.amazonaws.com${CERT_PATH}`]);
    expect(endpoint.handled.map((delivery) => delivery.payload.resource.id)).toEqual(['sns-host']);
  });

  it('does not trust a server whose certificate the trust store does not know', async () => {
    const endpoint = await start(loopbackSns({ httpsGet: httpsGetter() }));
    const response = await push(endpoint.url, signed(notification(1, 'untrusted-tls')));
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('10');
    expect(endpoint.handled).toEqual([]);
  });

  it('answers 503 (SNS retries) when the certificate cannot be fetched, 403 when the URL serves no certificate', async () => {
    const endpoint = await start(loopbackSns());
    const missing = signSnsMessage(notification(1, 'no-cert'), certificates.signingKey, `${peer.origin}/missing.pem`);
    const garbage = signSnsMessage(notification(2, 'no-cert'), certificates.signingKey, `${peer.origin}/not-a-certificate.pem`);
    const responses = [await push(endpoint.url, missing), await push(endpoint.url, garbage)];
    expect(responses.map((response) => response.status)).toEqual([503, 403]);
    expect(await errorCodeOf(responses[0] as Response)).toBe('ServiceUnavailable');
    expect(endpoint.handled).toEqual([]);
  });

  it('refuses a signature made while the certificate was valid once it has expired (clock two years on)', async () => {
    const later = { now: () => Date.now() + 2 * 365 * 86_400_000, setTimeout: () => ({ cancel: () => undefined }) };
    const endpoint = await start({ ...loopbackSns(), clock: later });
    expect((await push(endpoint.url, signed(notification(1, 'expired')))).status).toBe(403);
    expect(endpoint.handled).toEqual([]);
  });
});
