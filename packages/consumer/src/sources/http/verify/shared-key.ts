import { createHash, timingSafeEqual } from 'node:crypto';

const digestOf = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * Whether `given` is one of `keys`, in time independent of where they differ: both sides are
 * hashed first, so neither the content nor the length of a key shows in the timing.
 */
export function matchesSharedKey(given: string, keys: readonly Buffer[]): boolean {
  const digest = digestOf(given);
  let matched = false;
  for (const key of keys) matched = timingSafeEqual(digest, key) || matched;
  return matched;
}

export function sharedKeyDigests(keys: readonly string[]): Buffer[] {
  return keys.map(digestOf);
}
