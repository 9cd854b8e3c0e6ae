import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Hashing of everything secret the token service handles.
 *
 * - Tokens and generated client secrets are 32 random bytes (256 bits). For such values a single
 *   SHA-256 is the right hash: nobody can brute-force a 256-bit preimage, so a slow, salted KDF
 *   would only cost CPU on every request without adding protection. (Slow KDFs exist to protect
 *   low-entropy, human-chosen secrets.)
 * - Customer passwords and the operator-chosen bootstrap client secret are human-chosen and may be
 *   weak: they get salted scrypt.
 *
 * Stored client secret hashes are tagged (`sha256$…`, `scrypt$…`) so both kinds verify alike.
 */

const TOKEN_BYTES = 32;

/** A new opaque token or client secret: 32 random bytes, base64url (43 characters). */
export function newSecret(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/** The lookup key of a token: SHA-256, hex. Only this is stored (see the comment above). */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

// scrypt cost: N=2^14, r=8 (16 MiB, 50-130 ms on our 2-core machines), the usual choice for interactive logins.
const SCRYPT = { N: 16_384, r: 8, p: 1 } as const;
const SCRYPT_KEY_BYTES = 32;

function scryptAsync(secret: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, keyLength, { ...options, maxmem: 64 * 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** `scrypt$N$r$p$salt$key`: the parameters travel with the hash so they can be raised later. */
export async function scryptHash(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(secret, salt, SCRYPT_KEY_BYTES, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** A 256-bit-entropy secret (generated client secret): SHA-256, tagged. */
export function sha256SecretHash(secret: string): string {
  return `sha256$${tokenHash(secret)}`;
}

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Verifies `secret` against a tagged hash in constant time; unknown formats never verify. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts[0] === 'sha256' && parts.length === 2) {
    return sameBytes(Buffer.from(tokenHash(secret), 'hex'), Buffer.from(parts[1] ?? '', 'hex'));
  }
  if (parts[0] === 'scrypt' && parts.length === 6) {
    const [, n, r, p, salt, key] = parts;
    const expected = Buffer.from(key ?? '', 'base64url');
    const actual = await scryptAsync(secret, Buffer.from(salt ?? '', 'base64url'), expected.length, {
      N: Number(n),
      r: Number(r),
      p: Number(p),
    });
    return sameBytes(actual, expected);
  }
  return false;
}

/** A hash no password matches: verifying against it equalises the time of an unknown e-mail. */
export const UNMATCHABLE_PASSWORD_HASH = `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(SCRYPT_KEY_BYTES).toString('base64url')}`;
