import { describe, expect, it } from 'vitest';
import { basicCredentials } from '../../src/oauth/client-auth.js';
import { maskAuthorizationHeader } from '../../src/oauth/external/settings.js';
import { urlForLog } from '../../src/oauth/log-redaction.js';
import { TokenBucketLimiter } from '../../src/oauth/rate-limit.js';
import { implies, parseProjectScope, scopeNamesFor, subjectOf } from '../../src/oauth/scopes.js';
import { newSecret, scryptHash, sha256SecretHash, tokenHash, verifySecret } from '../../src/oauth/secrets.js';
import { refreshTokenCutoff } from '../../src/oauth/token-store.js';
import { ManualClock } from '../support/clock.js';

describe('scopes (§5.1)', () => {
  it('manage_project implies everything of its project; manage_X implies view_X; nothing else', () => {
    expect(implies(new Set(['manage_project']), 'introspect_oauth_tokens')).toBe(true);
    expect(implies(new Set(['manage_orders']), 'view_orders')).toBe(true);
    expect(implies(new Set(['manage_my_profile']), 'view_my_profile')).toBe(true);
    expect(implies(new Set(['view_orders']), 'manage_orders')).toBe(false);
    expect(implies(new Set(['manage_orders']), 'view_order')).toBe(false);
    expect(implies(new Set(['manage_project_settings']), 'manage_project')).toBe(false);
  });

  it('separates project scopes from subject markers and other projects', () => {
    const scopes = ['view_orders:p', 'manage_project:q', 'customer_id:c-1', 'anonymous_id:a-1', 'openid'];
    expect([...scopeNamesFor(scopes, 'p')]).toEqual(['view_orders']);
    expect(subjectOf(scopes)).toEqual({ customerId: 'c-1', anonymousId: 'a-1' });
    expect(parseProjectScope('customer_id:p')).toBeUndefined();
    expect(parseProjectScope('View:p')).toBeUndefined();
  });
});

describe('secrets', () => {
  it('tokens are 256-bit random, stored as SHA-256; tagged hashes verify and reject', async () => {
    const token = newSecret();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tokenHash(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(await verifySecret(token, sha256SecretHash(token))).toBe(true);
    expect(await verifySecret(`${token}x`, sha256SecretHash(token))).toBe(false);
    const scrypted = await scryptHash('hunter2');
    expect(scrypted).not.toContain('hunter2');
    expect(await verifySecret('hunter2', scrypted)).toBe(true);
    expect(await verifySecret('hunter3', scrypted)).toBe(false);
    expect(await verifySecret('anything', 'plain-text')).toBe(false);
  });

  it('masks authorization headers and access tokens in logged URLs', () => {
    expect(maskAuthorizationHeader('Bearer abcdefghijklmnop')).toBe('Bearer abcd****');
    expect(maskAuthorizationHeader('Basic short')).toBe('Basic ****');
    expect(urlForLog('/p/stores?where=x&access_token=SECRET&limit=1')).toBe('/p/stores?where=x&access_token=[redacted]&limit=1');
    // Every credential parameter on every path, its name matched as URLSearchParams decodes it…
    expect(urlForLog('/p/me?password=A&Client_Secret=B&refresh_token=C&token=D&pass%77ord=E&code=F&where=id%3D%221%22')).toBe(
      '/p/me?password=[redacted]&Client_Secret=[redacted]&refresh_token=[redacted]&token=[redacted]&pass%77ord=[redacted]&code=[redacted]&where=id%3D%221%22',
    );
    // …and the whole query of the token endpoints, which take none.
    expect(urlForLog('/oauth/p/customers/token?username=u%40x&pwd=SECRET')).toBe('/oauth/p/customers/token?[redacted]');
    expect(urlForLog('/oauth/token')).toBe('/oauth/token');
  });

  it('parses HTTP Basic client credentials (§5.3)', () => {
    const header = `Basic ${Buffer.from('client:se:cret').toString('base64')}`;
    expect(basicCredentials(header)).toEqual({ id: 'client', secret: 'se:cret' });
    expect(basicCredentials('Bearer abc')).toBeUndefined();
    expect(basicCredentials(`Basic ${Buffer.from('no-colon').toString('base64')}`)).toBeUndefined();
  });
});

describe('limits', () => {
  it('the token bucket allows bursts up to the limit and refills per minute', () => {
    const clock = new ManualClock();
    const limiter = new TokenBucketLimiter(clock, 60);
    for (let i = 0; i < 60; i++) expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(limiter.take('b').allowed).toBe(true);
    clock.advance(1000);
    expect(limiter.take('a').allowed).toBe(true);
    expect(new TokenBucketLimiter(clock, 0).take('a').allowed).toBe(true);
  });

  it('keeps long keys (a claimed client id can be 12 KB) by their hash, each in its own bucket', () => {
    const limiter = new TokenBucketLimiter(new ManualClock(), 1);
    const long = 'x'.repeat(12_000);
    expect(limiter.take(`${long}a`).allowed).toBe(true);
    expect(limiter.take(`${long}b`).allowed).toBe(true);
    expect(limiter.take(`${long}a`).allowed).toBe(false);
    limiter.refund(`${long}a`);
    expect(limiter.take(`${long}a`).allowed).toBe(true);
    const keys = [...(limiter as unknown as { buckets: Map<string, unknown> }).buckets.keys()];
    expect(keys.every((key) => key.length <= 128)).toBe(true);
  });

  it('refresh tokens expire six calendar months after their last use, shorter months clamped', () => {
    const cutoff = (now: string) => refreshTokenCutoff(new Date(now)).toISOString();
    expect(cutoff('2025-07-31T10:00:00Z')).toBe('2025-01-31T10:00:00.000Z');
    // Not rolled over into March (3 March): a token last used on 1 March lives until 1 September.
    expect(cutoff('2025-08-31T10:00:00Z')).toBe('2025-02-28T10:00:00.000Z');
    expect(cutoff('2024-08-30T10:00:00Z')).toBe('2024-02-29T10:00:00.000Z');
    expect(cutoff('2025-09-01T10:00:00Z')).toBe('2025-03-01T10:00:00.000Z');
    expect(cutoff('2025-03-31T00:00:00Z')).toBe('2024-09-30T00:00:00.000Z');
  });
});
