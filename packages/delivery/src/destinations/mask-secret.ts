/** Characters of a secret left visible, so users can tell which key is configured. */
const VISIBLE_PREFIX = 4;

/** `abcdefgh` → `abcd****`; short values are hidden entirely. Idempotent. */
export function maskSecret(secret: string): string {
  return secret.length <= VISIBLE_PREFIX ? '****' : `${secret.slice(0, VISIBLE_PREFIX)}****`;
}
