import { timingSafeEqual } from 'node:crypto';
import type { ApiClientRecord, ApiClientStore } from './api-client-store.js';
import { oauthError } from './errors.js';
import { tokenHash, verifySecret } from './secrets.js';

export interface ClientCredentials {
  id: string;
  secret: string;
}

/**
 * §5.3: HTTP Basic client authentication, `base64(client_id:client_secret)`. The official SDK
 * sends the id and secret as they are (not form-encoded first), and so does everyone else.
 */
export function basicCredentials(header: string | undefined): ClientCredentials | undefined {
  if (header === undefined) return undefined;
  const match = /^Basic[ ]+([A-Za-z0-9+/=_-]+)[ ]*$/i.exec(header);
  if (match?.[1] === undefined) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

export const invalidClient = () => oauthError('invalid_client', 'Please provide valid client credentials using HTTP Basic Authentication.');

/**
 * Authenticates API clients. Secrets hashed with scrypt (the operator-chosen bootstrap secret) are
 * slow to verify on purpose; once one verified, this process remembers the SHA-256 of the secret
 * that matched, so the same client does not pay scrypt on every token request. The memory is tied
 * to the stored hash: a changed secret verifies afresh.
 */
export class ClientAuthenticator {
  private readonly verified = new Map<string, { storedHash: string; presentedDigest: Buffer }>();

  constructor(private readonly clients: ApiClientStore) {}

  async authenticate(authorization: string | undefined): Promise<ApiClientRecord> {
    const credentials = basicCredentials(authorization);
    if (credentials === undefined) throw invalidClient();
    const client = await this.clients.get(credentials.id);
    if (client === undefined || !(await this.secretMatches(client, credentials.secret))) throw invalidClient();
    return client;
  }

  private async secretMatches(client: ApiClientRecord, secret: string): Promise<boolean> {
    const presentedDigest = Buffer.from(tokenHash(secret), 'hex');
    const remembered = this.verified.get(client.id);
    if (remembered !== undefined && remembered.storedHash === client.secretHash) {
      return timingSafeEqual(remembered.presentedDigest, presentedDigest);
    }
    if (!(await verifySecret(secret, client.secretHash))) return false;
    if (client.secretHash.startsWith('scrypt$')) this.verified.set(client.id, { storedHash: client.secretHash, presentedDigest });
    return true;
  }
}
