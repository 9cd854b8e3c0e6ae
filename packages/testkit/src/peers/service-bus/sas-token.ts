import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Verification of the Service Bus shared access signature a client presents in a CBS put-token:
 * `SharedAccessSignature sr=<url-encoded resource URI>&sig=<url-encoded base64 signature>&se=<expiry,
 * unix seconds>&skn=<key name>`, where the signature is HMAC-SHA256 over "<sr as sent>\n<se>", keyed
 * with the UTF-8 bytes of the key (the key is NOT base64-decoded, unlike Event Grid's).
 */
export interface SharedAccessKey {
  readonly keyName: string;
  readonly key: string;
}

export type TokenVerdict =
  | { readonly ok: true; /** The resource URI the token grants access to (decoded `sr`). */ readonly resource: string; readonly expiresAt: Date }
  | { readonly ok: false; readonly reason: string };

const PREFIX = 'SharedAccessSignature ';

export function verifySasToken(token: string, accessKey: SharedAccessKey, now: Date): TokenVerdict {
  if (!token.startsWith(PREFIX)) return { ok: false, reason: 'The token is not a SharedAccessSignature.' };
  const fields = rawFields(token.slice(PREFIX.length));
  const [sr, sig, se, skn] = [fields.get('sr'), fields.get('sig'), fields.get('se'), fields.get('skn')];
  if (sr === undefined || sig === undefined || se === undefined || skn === undefined) {
    return { ok: false, reason: 'The token is malformed: sr, sig, se and skn are required.' };
  }
  if (decodeURIComponent(skn) !== accessKey.keyName) return { ok: false, reason: `Unknown shared access key name '${decodeURIComponent(skn)}'.` };
  const expected = createHmac('sha256', accessKey.key).update(`${sr}\n${se}`).digest('base64');
  if (!sameSecret(decodeURIComponent(sig), expected)) return { ok: false, reason: 'The token signature does not match.' };
  const expirySeconds = Number(se);
  if (!Number.isInteger(expirySeconds)) return { ok: false, reason: 'The token expiry is not a number.' };
  if (expirySeconds * 1000 <= now.getTime()) return { ok: false, reason: 'The token has expired.' };
  return { ok: true, resource: decodeURIComponent(sr), expiresAt: new Date(expirySeconds * 1000) };
}

/** Splits `a=1&b=2` keeping values URL-encoded: the signature covers `sr` exactly as sent. */
function rawFields(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const pair of text.split('&')) {
    const separator = pair.indexOf('=');
    if (separator > 0) fields.set(pair.slice(0, separator), pair.slice(separator + 1));
  }
  return fields;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
