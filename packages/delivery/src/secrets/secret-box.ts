import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Encrypts secrets at rest (AES-256-GCM) when HERALD_SECRET_KEY is set: destination secrets and the
 * external OAuth authorization header. A stored secret is `enc:v1:<iv>:<tag>:<ciphertext>`
 * (base64url parts); without a key values are stored as they are, and encrypted values written
 * earlier cannot be read (a clear error, not garbage).
 */
export interface SecretBox {
  seal(plain: string): string;
  open(stored: string): string;
}

const PREFIX = 'enc:v1:';

/** The shortest HERALD_SECRET_KEY accepted (the worker's and the gateway's configuration check it). */
export const MIN_SECRET_KEY_LENGTH = 16;

/**
 * Whether a value has the form of a sealed secret. `seal` passes such values through (re-sealing a
 * stored value is a no-op), so input must never have it: the API refuses secrets that do.
 */
export function looksSealed(value: string): boolean {
  return value.startsWith(PREFIX);
}

export class AesGcmSecretBox implements SecretBox {
  private readonly key: Buffer;

  /** Any passphrase works: it is stretched to 32 bytes with SHA-256. */
  constructor(secretKey: string) {
    if (secretKey.length < MIN_SECRET_KEY_LENGTH) throw new Error(`HERALD_SECRET_KEY must be at least ${MIN_SECRET_KEY_LENGTH} characters`);
    this.key = createHash('sha256').update(secretKey).digest();
  }

  seal(plain: string): string {
    if (looksSealed(plain)) return plain;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${PREFIX}${iv.toString('base64url')}:${cipher.getAuthTag().toString('base64url')}:${ciphertext.toString('base64url')}`;
  }

  open(stored: string): string {
    if (!looksSealed(stored)) return stored;
    const [iv, tag, ciphertext] = stored.slice(PREFIX.length).split(':');
    if (iv === undefined || tag === undefined || ciphertext === undefined) throw new Error('Malformed encrypted secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** Stores secrets as they are; refuses to read encrypted ones (the key was removed). */
export const plainSecretBox: SecretBox = {
  seal: (plain) => plain,
  open(stored) {
    if (looksSealed(stored)) throw new Error('A secret is encrypted but HERALD_SECRET_KEY is not set');
    return stored;
  },
};

export function secretBoxFor(secretKey: string | undefined): SecretBox {
  return secretKey === undefined || secretKey === '' ? plainSecretBox : new AesGcmSecretBox(secretKey);
}
