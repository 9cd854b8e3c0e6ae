import type { GrantRecord } from './token-store.js';

/** A validated bearer token: what it grants, until when, and who issued it. */
export interface TokenGrant extends GrantRecord {
  /** Epoch milliseconds. */
  expiresAt: number;
  source: 'herald' | 'external';
}
