import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushAuthenticationOptions } from '../../../src/index.js';
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

const AUDIENCE = 'https://consumer.example.com/events';
const SERVICE_ACCOUNT = 'herald-push@my-project.iam.gserviceaccount.com';

let googleKey: JwtSigningKey;
/** Another key under Google's key id: a forger's. */
let forgerKey: JwtSigningKey;
let jwks: RecordingServer;

beforeAll(async () => {
  googleKey = await makeJwtSigningKey('google-key-1');
  forgerKey = await makeJwtSigningKey(googleKey.kid);
  jwks = await startHttpPeer({ '/oauth2/v3/certs': text(JSON.stringify({ keys: [googleKey.publicJwk] }), 'application/json') });
});
afterAll(async () => {
  await jwks?.close();
});

const pubSubAuthentication = (): PushAuthenticationOptions => ({
  pubSubPush: { audience: AUDIENCE, serviceAccountEmail: SERVICE_ACCOUNT, jwksUrl: `${jwks.origin}/oauth2/v3/certs` },
});

/** The claims of the OIDC token Pub/Sub attaches to an authenticated push (Pub/Sub docs, "Authentication for push subscriptions"). */
function googleClaims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return {
    aud: AUDIENCE,
    azp: '113774264463038321964',
    email: SERVICE_ACCOUNT,
    email_verified: true,
    exp: now + 3600,
    iat: now,
    iss: 'https://accounts.google.com',
    sub: '113774264463038321964',
    ...overrides,
  };
}

function push(url: string, id: string, authorization?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization === undefined ? {} : { authorization }) },
    body: pubSubPushBody(JSON.stringify(cloudEventOf(messagePayload(1, { id })))),
  });
}

const bearer = (claims: Record<string, unknown>, key: JwtSigningKey = googleKey) => `Bearer ${signJwt(claims, key)}`;
const idsOf = (endpoint: AuthenticatedEndpoint) => endpoint.handled.map((delivery) => delivery.payload.resource.id);

describe.each(['node:http handler', 'Fastify plugin'])('Pub/Sub push with OIDC authentication, %s', (frontEnd) => {
  let endpoints: AuthenticatedEndpoint[];
  let endpoint: AuthenticatedEndpoint;

  beforeAll(async () => {
    endpoints = await authenticatedEndpoints(pubSubAuthentication());
    endpoint = endpoints.find((candidate) => candidate.name === frontEnd) as AuthenticatedEndpoint;
  });
  afterAll(async () => {
    for (const each of endpoints) await each.close();
  });

  it('hands a push with a Google-signed token for the audience and service account to the handler (both issuer spellings)', async () => {
    const withUrlIssuer = await push(endpoint.url, 'oidc', bearer(googleClaims()));
    const withBareIssuer = await push(endpoint.url, 'oidc-bare', bearer(googleClaims({ iss: 'accounts.google.com' })));
    expect([withUrlIssuer.status, withBareIssuer.status]).toEqual([204, 204]);
    expect(idsOf(endpoint)).toEqual(expect.arrayContaining(['oidc', 'oidc-bare']));
    expect(endpoint.handled.find((delivery) => delivery.payload.resource.id === 'oidc')?.origin.envelope).toBe('pubsub-push');
  });

  it('answers 401 with a Bearer challenge to a push without a token', async () => {
    for (const authorization of [undefined, 'Basic dXNlcjpwYXNz']) {
      const response = await push(endpoint.url, 'no-token', authorization);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(await errorCodeOf(response)).toBe('invalid_token');
    }
    expect(idsOf(endpoint)).not.toContain('no-token');
  });

  it.each([
    ['another audience', { aud: 'https://someone-else.example.com/push' }],
    ['another service account', { email: 'attacker@evil-project.iam.gserviceaccount.com' }],
    ['an unverified email', { email_verified: false }],
    ['no email', { email: undefined }],
    ['another issuer', { iss: 'https://evil.example.com' }],
    ['an expired token', { exp: Math.floor(Date.now() / 1000) - 120, iat: Math.floor(Date.now() / 1000) - 3720 }],
    ['a token issued in the future', { iat: Math.floor(Date.now() / 1000) + 600, exp: Math.floor(Date.now() / 1000) + 4200 }],
    ['a token without exp', { exp: undefined }],
  ])('answers 403 to a token with %s', async (name, overrides) => {
    const response = await push(endpoint.url, `bad-claims: ${name}`, bearer(googleClaims(overrides)));
    expect(response.status).toBe(403);
    expect(await errorCodeOf(response)).toBe('Unauthorized');
    expect(idsOf(endpoint)).not.toContain(`bad-claims: ${name}`);
  });

  it('answers 403 to a token signed by another key under Google key id, HS256 with the public key as secret, alg none, or garbage', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: googleKey.kid })).toString('base64url');
    const payload = Buffer.from(JSON.stringify(googleClaims())).toString('base64url');
    const hmac = createHmac('sha256', JSON.stringify(googleKey.publicJwk)).update(`${header}.${payload}`).digest('base64url');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    for (const authorization of [bearer(googleClaims(), forgerKey), `Bearer ${header}.${payload}.${hmac}`, `Bearer ${none}`, 'Bearer not-a-jwt']) {
      expect((await push(endpoint.url, 'forged', authorization)).status).toBe(403);
    }
    expect(idsOf(endpoint)).not.toContain('forged');
  });

  it('allows a small clock skew: a token expired 20 s ago still passes', async () => {
    const now = Math.floor(Date.now() / 1000);
    const response = await push(endpoint.url, 'skewed', bearer(googleClaims({ exp: now - 20, iat: now - 3620 })));
    expect(response.status).toBe(204);
  });
});

describe('Pub/Sub push keys', () => {
  it('answers 503 with Retry-After (Pub/Sub retries) when the JWKS cannot be fetched, and the handler is not called', async () => {
    const gone = await startHttpPeer({});
    await gone.close();
    const endpoint = await authenticatedNodeEndpoint({
      pubSubPush: { audience: AUDIENCE, serviceAccountEmail: SERVICE_ACCOUNT, jwksUrl: `${gone.origin}/certs` },
    });
    try {
      const response = await push(endpoint.url, 'keys-down', bearer(googleClaims()));
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('10');
      expect(endpoint.handled).toEqual([]);
    } finally {
      await endpoint.close();
    }
  });

  it('fetches the key set once for many tokens', async () => {
    const endpoint = await authenticatedNodeEndpoint(pubSubAuthentication());
    try {
      const before = jwks.requests.length;
      for (let index = 0; index < 3; index++) expect((await push(endpoint.url, `cached-${index}`, bearer(googleClaims()))).status).toBe(204);
      expect(jwks.requests.length - before).toBe(1);
    } finally {
      await endpoint.close();
    }
  });
});
