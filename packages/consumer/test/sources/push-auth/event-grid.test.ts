import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsumer, createHttpDeliveryHandler, MemoryDedupStore, type PushAuthenticationOptions } from '../../../src/index.js';
import { cloudEventOf, messagePayload } from '../../support/fixtures.js';
import { makeJwtSigningKey, signJwt, type JwtSigningKey } from '../../support/push-auth-keys.js';
import {
  authenticatedEndpoints,
  authenticatedNodeEndpoint,
  errorCodeOf,
  startHttpPeer,
  text,
  type AuthenticatedEndpoint,
  type RecordingServer,
} from '../../support/push-auth-servers.js';
import { pubSubPushBody } from '../../support/push-endpoints.js';

const TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';
const WEBHOOK_APP = 'api://herald-consumer';
const EVENT_GRID_APP = '11111111-2222-3333-4444-555555555555';

let entraKey: JwtSigningKey;
let googleKey: JwtSigningKey;
let keys: RecordingServer;

beforeAll(async () => {
  entraKey = await makeJwtSigningKey('entra-key');
  googleKey = await makeJwtSigningKey('google-key');
  keys = await startHttpPeer({
    '/entra/keys': text(JSON.stringify({ keys: [entraKey.publicJwk] }), 'application/json'),
    '/google/certs': text(JSON.stringify({ keys: [googleKey.publicJwk] }), 'application/json'),
  });
});
afterAll(async () => {
  await keys?.close();
});

function postEvents(url: string, id: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/cloudevents-batch+json; charset=utf-8', 'aeg-delivery-count': '0', ...headers },
    body: JSON.stringify([cloudEventOf(messagePayload(1, { id }))]),
  });
}

const idsOf = (endpoint: AuthenticatedEndpoint) => endpoint.handled.map((delivery) => delivery.payload.resource.id);

function entraClaims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return {
    aud: WEBHOOK_APP,
    iss: `https://sts.windows.net/${TENANT}/`,
    appid: EVENT_GRID_APP,
    roles: ['AzureEventGridSecureWebhookSubscriber'],
    iat: now,
    nbf: now,
    exp: now + 3600,
    tid: TENANT,
    ...overrides,
  };
}

describe.each(['node:http handler', 'Fastify plugin'])('Event Grid shared key, %s', (frontEnd) => {
  let endpoints: AuthenticatedEndpoint[];
  let endpoint: AuthenticatedEndpoint;

  beforeAll(async () => {
    endpoints = await authenticatedEndpoints({ eventGrid: { sharedKey: { keys: ['current-secret', 'previous-secret'] } } });
    endpoint = endpoints.find((candidate) => candidate.name === frontEnd) as AuthenticatedEndpoint;
  });
  afterAll(async () => {
    for (const each of endpoints) await each.close();
  });

  it('accepts the key in the query (?code=) or in the aeg-sas-key header, current or previous', async () => {
    const statuses = [
      (await postEvents(`${endpoint.url}?code=current-secret`, 'keyed')).status,
      (await postEvents(`${endpoint.url}?code=previous-secret`, 'keyed')).status,
      (await postEvents(endpoint.url, 'keyed', { 'aeg-sas-key': 'current-secret' })).status,
    ];
    expect(statuses).toEqual([204, 204, 204]);
    expect(idsOf(endpoint).filter((id) => id === 'keyed')).toHaveLength(1); // one event, deduplicated
  });

  it('answers 403 to a wrong key and 401 to none, and the handler never sees them', async () => {
    const wrong = [await postEvents(`${endpoint.url}?code=current-secreT`, 'unkeyed'), await postEvents(endpoint.url, 'unkeyed', { 'aeg-sas-key': 'current' })];
    for (const response of wrong) {
      expect(response.status).toBe(403);
      expect(await errorCodeOf(response)).toBe('Unauthorized');
    }
    const none = await postEvents(`${endpoint.url}?other=current-secret`, 'unkeyed');
    expect(none.status).toBe(401);
    expect(await errorCodeOf(none)).toBe('invalid_token');
    expect(none.headers.get('www-authenticate')).toBeNull();
    expect(idsOf(endpoint)).not.toContain('unkeyed');
  });

  it('still grants the webhook validation handshake (OPTIONS reaches no handler)', async () => {
    const response = await fetch(endpoint.url, { method: 'OPTIONS', headers: { 'WebHook-Request-Origin': 'eventgrid.azure.net' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('webhook-allowed-origin')).toBe('eventgrid.azure.net');
  });
});

describe('Event Grid shared key locations', () => {
  it('reads a custom query parameter and header instead of the defaults', async () => {
    const endpoint = await authenticatedNodeEndpoint({ eventGrid: { sharedKey: { keys: 's3cret', queryParameter: 'token', header: 'X-Herald-Key' } } });
    try {
      const statuses = [
        (await postEvents(`${endpoint.url}?token=s3cret`, 'custom')).status,
        (await postEvents(endpoint.url, 'custom', { 'x-herald-key': 's3cret' })).status,
        (await postEvents(`${endpoint.url}?code=s3cret`, 'custom-default')).status,
        (await postEvents(endpoint.url, 'custom-default', { 'aeg-sas-key': 's3cret' })).status,
      ];
      expect(statuses).toEqual([204, 204, 401, 401]);
      expect(idsOf(endpoint)).toEqual(['custom']);
    } finally {
      await endpoint.close();
    }
  });
});

describe('Event Grid to a Microsoft Entra protected webhook', () => {
  let endpoint: AuthenticatedEndpoint;

  beforeAll(async () => {
    endpoint = await authenticatedNodeEndpoint({
      eventGrid: { entra: { tenantId: TENANT, audience: WEBHOOK_APP, applicationIds: [EVENT_GRID_APP], jwksUrl: `${keys.origin}/entra/keys` } },
    });
  });
  afterAll(async () => {
    await endpoint.close();
  });

  it('accepts an Entra access token for the webhook app carrying the subscriber role (v1 and v2 issuers)', async () => {
    const v1 = await postEvents(endpoint.url, 'entra', { authorization: `Bearer ${signJwt(entraClaims(), entraKey)}` });
    const v2Claims = entraClaims({ iss: `https://login.microsoftonline.com/${TENANT}/v2.0`, appid: undefined, azp: EVENT_GRID_APP });
    const v2 = await postEvents(endpoint.url, 'entra-v2', { authorization: `Bearer ${signJwt(v2Claims, entraKey)}` });
    expect([v1.status, v2.status]).toEqual([204, 204]);
    expect(idsOf(endpoint)).toEqual(['entra', 'entra-v2']);
  });

  it.each([
    ['without the role', { roles: ['SomethingElse'] }],
    ['from another application', { appid: '99999999-9999-9999-9999-999999999999' }],
    ['from another tenant', { iss: 'https://sts.windows.net/00000000-0000-0000-0000-000000000000/' }],
    ['for another audience', { aud: 'api://someone-else' }],
  ])('answers 403 to a token %s', async (name, overrides) => {
    const response = await postEvents(endpoint.url, `entra-bad: ${name}`, { authorization: `Bearer ${signJwt(entraClaims(overrides), entraKey)}` });
    expect(response.status).toBe(403);
    expect(idsOf(endpoint)).not.toContain(`entra-bad: ${name}`);
  });

  it('answers 401 with a Bearer challenge without a token', async () => {
    const response = await postEvents(endpoint.url, 'entra-none');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });
});

describe('One endpoint for several pushers', () => {
  let endpoint: AuthenticatedEndpoint;
  const authentication = (): PushAuthenticationOptions => ({
    sns: { topicArns: ['arn:aws:sns:us-east-1:123456789012:herald'] },
    eventGrid: { sharedKey: { keys: 'grid-secret' }, entra: { tenantId: TENANT, audience: WEBHOOK_APP, jwksUrl: `${keys.origin}/entra/keys` } },
    pubSubPush: {
      audience: 'https://consumer.example.com/events',
      serviceAccountEmail: 'push@p.iam.gserviceaccount.com',
      jwksUrl: `${keys.origin}/google/certs`,
    },
  });

  beforeAll(async () => {
    endpoint = await authenticatedNodeEndpoint(authentication());
  });
  afterAll(async () => {
    await endpoint.close();
  });

  it('accepts each pusher proven by its own check, including a bearer token only the second bearer check accepts', async () => {
    const now = Math.floor(Date.now() / 1000);
    const google = signJwt(
      {
        aud: 'https://consumer.example.com/events',
        iss: 'https://accounts.google.com',
        email: 'push@p.iam.gserviceaccount.com',
        email_verified: true,
        iat: now,
        exp: now + 3600,
      },
      googleKey,
    );
    const pushed = await fetch(endpoint.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${google}` },
      body: pubSubPushBody(JSON.stringify(cloudEventOf(messagePayload(1, { id: 'mixed-pubsub' })))),
    });
    const keyed = await postEvents(`${endpoint.url}?code=grid-secret`, 'mixed-grid');
    const entra = await postEvents(endpoint.url, 'mixed-entra', { authorization: `Bearer ${signJwt(entraClaims(), entraKey)}` });
    expect([pushed.status, keyed.status, entra.status]).toEqual([204, 204, 204]);
    expect(idsOf(endpoint).sort()).toEqual(['mixed-entra', 'mixed-grid', 'mixed-pubsub']);
  });

  it('refuses a request none of them proves: 401 without credentials, 403 when one check found bad ones', async () => {
    expect((await postEvents(endpoint.url, 'mixed-none')).status).toBe(401);
    expect((await postEvents(endpoint.url, 'mixed-none', { authorization: `Bearer ${signJwt(entraClaims(), googleKey)}` })).status).toBe(403);
    expect((await postEvents(endpoint.url, 'mixed-none', { 'aeg-sas-key': 'nope' })).status).toBe(403);
    expect(idsOf(endpoint)).not.toContain('mixed-none');
  });
});

describe('createHttpDeliveryHandler with a shared key', () => {
  it('reads the key from the query of any request target, even one that is not a valid URL', async () => {
    const handled: string[] = [];
    const consumer = createConsumer({ dedup: new MemoryDedupStore(), handler: (delivery) => void handled.push(delivery.payload.resource.id) });
    const handle = createHttpDeliveryHandler(consumer, { authentication: { eventGrid: { sharedKey: { keys: 'k' } } } });
    const request = (url: string) => ({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/cloudevents+json' },
      body: JSON.stringify(cloudEventOf(messagePayload(1, { id: url }))),
    });
    try {
      expect((await handle(request('//[?code=k'))).statusCode).toBe(204);
      expect((await handle(request('//[?code=x'))).statusCode).toBe(403);
      expect(handled).toEqual(['//[?code=k']);
    } finally {
      await consumer.close();
    }
  });
});

describe('Configuration', () => {
  it('refuses authentication options that name no check, when the endpoint is made', async () => {
    const consumer = createConsumer({ dedup: new MemoryDedupStore(), handler: () => undefined });
    const make = (authentication: PushAuthenticationOptions) => () => createHttpDeliveryHandler(consumer, { authentication });
    try {
      expect(make({})).toThrow(/names no pusher/);
      expect(make({ eventGrid: {} })).toThrow(/sharedKey or entra/);
      expect(make({ sns: { topicArns: [] } })).toThrow(/topic ARN/);
      expect(make({ eventGrid: { sharedKey: { keys: '' } } })).toThrow(/non-empty/);
      expect(make({ pubSubPush: { audience: [], serviceAccountEmail: 'a@b' } })).toThrow(/audience/);
    } finally {
      await consumer.close();
    }
  });
});
