import { ApiError, concurrentModification, resourceNotFound } from '@herald/model';
import { expectedVersion } from '../../http/version.js';
import { scryptHash } from '../../oauth/secrets.js';
import type { RequestContext } from '../shared/context.js';
import { notFoundMessage } from '../shared/versioned-routes.js';
import { asDraft, requiredString, type Draft } from '../shared/validation.js';
import { CUSTOMER_TYPE_ID, type Customer } from './customer.js';
import { validPassword } from './draft.js';
import type { CustomerService } from './service.js';

/** The reference's InvalidCurrentPassword error (types/error/InvalidCurrentPasswordError.raml), with its documented message. */
export function invalidCurrentPassword(): ApiError {
  return new ApiError(400, { code: 'InvalidCurrentPassword', message: 'The given current password does not match.' });
}

/** A password longer than any Herald stores cannot be the current one; bounded so scrypt never hashes a large body. */
const MAX_CURRENT_PASSWORD_LENGTH = 256;

interface PasswordChangeRequest {
  version: number;
  currentPassword: string;
  newPassword: string;
}

/**
 * Whose password: an API client names the customer (`id`, within the store of an in-store path);
 * a `/me` request changes the token's own customer's, which in a store must be one that may act
 * there (in-store/my-*.raml: ResourceNotFound for a customer of another store).
 */
export type PasswordChangePlace = { kind: 'customer'; storeKey?: string } | { kind: 'my'; customerId: string; storeKey?: string };

function changeFields(draft: Draft): PasswordChangeRequest {
  // Every field of CustomerChangePassword / MyCustomerChangePassword is required; a missing version
  // is the InvalidInput of every update body (http/version.ts).
  return {
    version: expectedVersion(draft.version),
    currentPassword: requiredString(draft, 'currentPassword', MAX_CURRENT_PASSWORD_LENGTH),
    newPassword: validPassword(draft.newPassword, 'newPassword'),
  };
}

async function customerOfPlace(customers: CustomerService, projectKey: string, draft: Draft, place: PasswordChangePlace): Promise<Customer> {
  if (place.kind === 'customer') return customers.get(projectKey, { id: requiredString(draft, 'id', 256) }, place.storeKey);
  if (place.storeKey !== undefined && !(await customers.mayActInStore(projectKey, place.customerId, place.storeKey))) {
    throw resourceNotFound(notFoundMessage(CUSTOMER_TYPE_ID, { id: place.customerId }));
  }
  return customers.get(projectKey, { id: place.customerId }, undefined);
}

/**
 * `POST …/customers/password` and `…/me/password` (CustomerChangePassword, MyCustomerChangePassword):
 * a stale version is a 409 before any password is checked, a wrong current password the official
 * 400 InvalidCurrentPassword; otherwise the new password is stored hashed, as at sign-up.
 */
export async function changePassword(customers: CustomerService, ctx: RequestContext, body: unknown, place: PasswordChangePlace): Promise<Customer> {
  const draft = asDraft(body, place.kind === 'customer' ? 'CustomerChangePassword' : 'MyCustomerChangePassword');
  const request = changeFields(draft);
  const customer = await customerOfPlace(customers, ctx.projectKey, draft, place);
  if (customer.version !== request.version) throw concurrentModification(customer.version, request.version);
  if (!(await customers.passwordMatches(ctx.projectKey, customer.id, request.currentPassword))) throw invalidCurrentPassword();
  // scrypt before the transaction: it takes tens of milliseconds and needs no lock. The update is
  // at the version read above, so a password changed meanwhile makes this one a 409.
  const passwordHash = await scryptHash(request.newPassword);
  return customers.changePassword(ctx, customer.id, request.version, passwordHash);
}
