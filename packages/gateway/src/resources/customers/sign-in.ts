import { ApiError, requiredField } from '@herald/model';
import type { DocumentStore } from '@herald/store';
import type { RequestContext } from '../shared/context.js';
import { UNMATCHABLE_PASSWORD_HASH, verifySecret } from '../../oauth/secrets.js';
import { findActiveCart } from '../carts/active-cart.js';
import type { Cart } from '../carts/cart.js';
import { anonymousCartOf, signInMode, signInWithAnonymousCart } from '../carts/sign-in-carts.js';
import { asDraft, optionalString, type Draft } from '../shared/validation.js';
import type { Customer } from './customer.js';
import type { CustomerService } from './service.js';

/** CustomerSignInResult: the customer and, when there is one, its active cart. */
export interface CustomerSignInResult {
  customer: Customer;
  cart?: Cart;
}

/** The reference's InvalidCredentials error (400), with the message it documents. */
export function invalidCredentials(): ApiError {
  return new ApiError(400, { code: 'InvalidCredentials', message: 'Account with the given credentials not found.' });
}

function credentialField(draft: Record<string, unknown>, field: 'email' | 'password'): string {
  const value = draft[field];
  if (value === undefined || value === null) throw requiredField(field);
  // A value that is no string can match no account: the same answer as a wrong password.
  if (typeof value !== 'string') throw invalidCredentials();
  return value;
}

/** Which sign-in: an API client's (CustomerSignin) or a front end's (MyCustomerSignin, `/me/login`). */
export type SignInKind = 'customer' | 'my';

/** The anonymous cart a sign-in brings, and what to do with it. */
async function anonymousCartOfSignIn(documents: DocumentStore, ctx: RequestContext, draft: Draft, kind: SignInKind, storeKey: string | undefined) {
  if (kind === 'my') {
    // MyCustomerSignin: the anonymous session is the token's (me.raml /login).
    const cart = await anonymousCartOf(documents, ctx.projectKey, undefined, ctx.auth?.anonymousId, storeKey);
    return { cart, mode: signInMode(draft.activeCartSignInMode, 'activeCartSignInMode') };
  }
  const anonymousCartId = optionalString(draft.anonymousCartId, 'anonymousCartId', 256);
  const named = draft.anonymousCart ?? (anonymousCartId === undefined ? undefined : { id: anonymousCartId });
  const anonymousId = optionalString(draft.anonymousId, 'anonymousId', 256);
  const cart = await anonymousCartOf(documents, ctx.projectKey, named, anonymousId, storeKey);
  return { cart, mode: signInMode(draft.anonymousCartSignInMode, 'anonymousCartSignInMode') };
}

/**
 * `POST /{projectKey}/login`, `/me/login` and their in-store variants (CustomerSignin,
 * MyCustomerSignin): the customer whose e-mail and password match, found by the same rule as the
 * password flow (credentials.findForLogin: in a store, its own and global customers; otherwise
 * global customers only), with its active cart (in the store, for in-store sign-ins). An
 * anonymous cart the sign-in brings becomes the customer's or is merged (sign-in-carts.ts).
 */
export async function signIn(
  customers: CustomerService,
  documents: DocumentStore,
  ctx: RequestContext,
  body: unknown,
  where: { kind: SignInKind; storeKey: string | undefined },
): Promise<CustomerSignInResult> {
  const { projectKey } = ctx;
  const { storeKey } = where;
  const draft = asDraft(body, 'CustomerSignin');
  const email = credentialField(draft, 'email');
  const password = credentialField(draft, 'password');
  const found = await customers.findForLogin(projectKey, email, storeKey);
  // Verified against a dummy hash when the e-mail is unknown: the answer takes as long either way.
  const matches = await verifySecret(password, found?.passwordHash ?? UNMATCHABLE_PASSWORD_HASH);
  if (found === undefined || !matches) throw invalidCredentials();
  let customer: Customer;
  try {
    customer = await customers.get(projectKey, { id: found.customerId }, undefined);
  } catch {
    // Deleted while its password was being checked: as if it had never been found.
    throw invalidCredentials();
  }
  const anonymous = await anonymousCartOfSignIn(documents, ctx, draft, where.kind, storeKey);
  const cart =
    anonymous.cart === undefined
      ? await findActiveCart(documents.db, projectKey, { customerId: customer.id }, storeKey)
      : await signInWithAnonymousCart(documents, ctx.write, customer.id, anonymous.cart, anonymous.mode, storeKey);
  return cart === undefined ? { customer } : { customer, cart };
}
