import { invalidInput, invalidOperation, requiredField, type ApiError, type Clock } from '@herald/model';
import { scryptHash } from '../../oauth/secrets.js';
import type { ActionHandlers } from '../shared/update-actions.js';
import type { CustomerCredentials } from './credentials.js';
import type { AuthenticationMode, Customer } from './customer.js';
import { validPassword } from './draft.js';

const MODES: readonly AuthenticationMode[] = ['Password', 'ExternalAuth'];

/** An AuthenticationMode (types/customer/AuthenticationMode.raml): `Password` or `ExternalAuth`. */
export function authenticationMode(value: unknown, field: string): AuthenticationMode {
  if (value === undefined || value === null) throw requiredField(field);
  if (!MODES.includes(value as AuthenticationMode)) {
    throw invalidInput(`'${field}' must be one of ${MODES.map((mode) => `'${mode}'`).join(', ')}.`, { field, invalidValue: value });
  }
  return value as AuthenticationMode;
}

/**
 * CustomerDraft.authenticationMode (default `Password`) and its password: "Required when
 * `authenticationMode` is set to `Password`"; with `ExternalAuth` the password is optional and the
 * customer has none (AuthenticationMode.raml), so a password sent with it is not stored.
 */
export function draftCredentials(mode: unknown, password: unknown): { authenticationMode: AuthenticationMode; password?: string } {
  const chosen = mode === undefined || mode === null ? 'Password' : authenticationMode(mode, 'authenticationMode');
  return chosen === 'ExternalAuth' ? { authenticationMode: chosen } : { authenticationMode: chosen, password: validPassword(password) };
}

/** Replacing the password of a customer without one (e.g. a reset token issued before it switched to ExternalAuth). */
export function externalAuthHasNoPassword(): ApiError {
  return invalidOperation("The customer's authenticationMode is 'ExternalAuth': it has no password to replace.");
}

/**
 * CustomerSetAuthenticationModeAction: "Changing a Customer's `authMode` from `Password` to
 * `ExternalAuth` deletes the Customer's password"; `password` is "Required when `authMode` is
 * `Password`" (400 RequiredField) and becomes the customer's password when it switches back. The
 * password row is written in the update's transaction, so a refused update keeps the old one.
 * Without the password, sign-in, the password flow and password tokens find no account
 * (InvalidCredentials), and a password change no current password (InvalidCurrentPassword).
 * Setting the mode the customer has changes nothing: it never replaces a password (that is what
 * the password change, with the current password, is for). The reference has no message for it.
 */
export function authenticationModeActions(credentials: CustomerCredentials, clock: Clock): ActionHandlers<Customer> {
  return {
    async setAuthenticationMode(customer, action, { ctx, reader }) {
      const mode = authenticationMode(action.authMode, 'authMode');
      const password = mode === 'Password' ? validPassword(action.password) : undefined;
      if (mode === customer.authenticationMode) return [];
      customer.authenticationMode = mode;
      if (password === undefined) await credentials.deletePassword(ctx.projectKey, customer.id, reader.tx);
      else await credentials.savePassword(ctx.projectKey, customer.id, await scryptHash(password), clock.now().toISOString(), reader.tx);
      return [];
    },
  };
}
