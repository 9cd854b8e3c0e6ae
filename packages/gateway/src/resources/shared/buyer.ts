import { oauthError } from '../../oauth/errors.js';
import type { AuthContext } from '../../auth/types.js';

/** Who a `/me` request acts for: the customer of a password-flow token or an anonymous session. */
export type Buyer = { customerId: string } | { anonymousId: string };

/**
 * §5.3: `/me` endpoints act for the token's customer (`customer_id:<id>`) or anonymous session
 * (`anonymous_id:<id>`). The routes declare `me` so the authenticator refuses other tokens first;
 * these checks give the handlers the id and keep the rule true should a route forget.
 */
export function buyerOf(auth: AuthContext | undefined): Buyer {
  if (auth?.customerId !== undefined) return { customerId: auth.customerId };
  if (auth?.anonymousId !== undefined) return { anonymousId: auth.anonymousId };
  throw oauthError('insufficient_scope', 'This endpoint needs a customer or anonymous session token.');
}

/** A customer (not anonymous) buyer: quote requests belong to customers only (§2.3). */
export function customerOf(auth: AuthContext | undefined): string {
  if (auth?.customerId !== undefined) return auth.customerId;
  throw oauthError('insufficient_scope', 'This endpoint needs a customer token (password flow).');
}
