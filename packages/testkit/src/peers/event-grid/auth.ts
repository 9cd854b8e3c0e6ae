import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Event Grid topic authentication: either the access key itself in `aeg-sas-key`, or a shared
 * access signature in `aeg-sas-token` (`r=<url-encoded resource>&e=<url-encoded expiry>&s=<url-encoded
 * base64 HMAC-SHA256 of "r=…&e=…" keyed with the base64-decoded access key>`).
 */
export type AuthOutcome = { readonly ok: true } | { readonly ok: false; readonly message: string };

export interface TopicCredentials {
  readonly accessKey: string;
  /** Path of the topic endpoint; a SAS token must be issued for it. */
  readonly endpointPath: string;
}

export function authenticate(
  headers: { readonly key: string | undefined; readonly token: string | undefined },
  credentials: TopicCredentials,
  now: Date,
): AuthOutcome {
  if (headers.key !== undefined) {
    return sameSecret(headers.key, credentials.accessKey)
      ? { ok: true }
      : { ok: false, message: 'The request authorization key is not authorized for this topic.' };
  }
  if (headers.token !== undefined) return checkSasToken(headers.token, credentials, now);
  return { ok: false, message: "The request has no 'aeg-sas-key' or 'aeg-sas-token' header." };
}

function checkSasToken(token: string, credentials: TopicCredentials, now: Date): AuthOutcome {
  const parts = new URLSearchParams(token);
  const resource = parts.get('r');
  const expiry = parts.get('e');
  const signature = parts.get('s');
  if (resource === null || expiry === null || signature === null) {
    return { ok: false, message: 'The SAS token is malformed: it needs r, e and s.' };
  }
  // The signature covers the still-encoded "r=…&e=…" prefix exactly as the client built it.
  const signed = `r=${encodeURIComponent(resource)}&e=${encodeURIComponent(expiry)}`;
  const expected = createHmac('sha256', Buffer.from(credentials.accessKey, 'base64')).update(signed).digest('base64');
  if (!sameSecret(signature, expected)) return { ok: false, message: 'The SAS token signature is invalid.' };
  const expiresAt = Date.parse(expiry);
  if (Number.isNaN(expiresAt) || expiresAt <= now.getTime()) return { ok: false, message: 'The SAS token has expired.' };
  let resourcePath: string;
  try {
    resourcePath = new URL(resource).pathname;
  } catch {
    return { ok: false, message: 'The SAS token resource is not a URL.' };
  }
  if (resourcePath !== credentials.endpointPath) return { ok: false, message: 'The SAS token was issued for another resource.' };
  return { ok: true };
}

/** Constant-time comparison, so the peer does not model a timing side channel a real service lacks. */
function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
