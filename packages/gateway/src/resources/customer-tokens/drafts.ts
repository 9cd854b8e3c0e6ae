import { invalidInput, requiredField } from '@herald/model';
import { expectedVersion } from '../../http/version.js';
import { validEmail } from '../customers/draft.js';
import { asDraft, type Draft } from '../shared/validation.js';

/** CustomerCreatePasswordResetToken.ttlMinutes' default (types/customer): 24 hours. */
export const DEFAULT_PASSWORD_TOKEN_MINUTES = 1440;
/**
 * The reference states no maximum for `ttlMinutes`. Herald bounds it at 34,560 minutes (24 days,
 * the reference's own earlier default for password tokens, the longest validity it ever handed
 * out): a token is a credential, and an unbounded one would never expire in practice.
 */
export const MAX_TOKEN_MINUTES = 34_560;
const MAX_PASSWORD_LENGTH = 256;
const MAX_TOKEN_LENGTH = 256;

function ttlMinutes(value: unknown, fallback: number | undefined): number {
  if (value === undefined || value === null) {
    if (fallback === undefined) throw requiredField('ttlMinutes');
    return fallback;
  }
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_TOKEN_MINUTES) {
    throw invalidInput(`'ttlMinutes' must be a whole number of minutes from 1 to ${MAX_TOKEN_MINUTES}.`, { field: 'ttlMinutes', invalidValue: value });
  }
  return value;
}

function flag(value: unknown, field: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw invalidInput(`'${field}' must be a boolean.`, { field, invalidValue: value });
  return value;
}

function optionalVersion(draft: Draft): number | undefined {
  return draft.version === undefined || draft.version === null ? undefined : expectedVersion(draft.version);
}

function requiredText(draft: Draft, field: string, maxLength: number, echo = true): string {
  const value = draft[field];
  if (value === undefined || value === null) throw requiredField(field);
  if (typeof value !== 'string' || value.length === 0 || value.length > maxLength) {
    // A token or password is never echoed back (`invalidValue`): error bodies get logged.
    throw invalidInput(`'${field}' must be a string of 1 to ${maxLength} characters.`, { field, ...(echo ? { invalidValue: value } : {}) });
  }
  return value;
}

export interface TokenRequest {
  ttlMinutes: number;
  invalidateOlderTokens: boolean;
}

/** CustomerCreateEmailToken: `id` and `ttlMinutes` required, `version` of the customer optional. */
export function emailTokenDraft(body: unknown): TokenRequest & { customerId: string; version?: number } {
  const draft = asDraft(body, 'CustomerCreateEmailToken');
  const version = optionalVersion(draft);
  return {
    customerId: requiredText(draft, 'id', 256),
    ttlMinutes: ttlMinutes(draft.ttlMinutes, undefined),
    invalidateOlderTokens: flag(draft.invalidateOlderTokens, 'invalidateOlderTokens'),
    ...(version === undefined ? {} : { version }),
  };
}

/** CustomerCreatePasswordResetToken: `email` required (case-insensitive), `ttlMinutes` defaults to 1440. */
export function passwordTokenDraft(body: unknown): TokenRequest & { email: string } {
  const draft = asDraft(body, 'CustomerCreatePasswordResetToken');
  return {
    email: validEmail(draft.email),
    ttlMinutes: ttlMinutes(draft.ttlMinutes, DEFAULT_PASSWORD_TOKEN_MINUTES),
    invalidateOlderTokens: flag(draft.invalidateOlderTokens, 'invalidateOlderTokens'),
  };
}

/** CustomerEmailVerify / MyCustomerEmailVerify (the My form has no `version`). */
export function emailVerifyDraft(body: unknown): { tokenValue: string; version?: number } {
  const draft = asDraft(body, 'CustomerEmailVerify');
  const version = optionalVersion(draft);
  return { tokenValue: requiredText(draft, 'tokenValue', MAX_TOKEN_LENGTH, false), ...(version === undefined ? {} : { version }) };
}

/** CustomerResetPassword / MyCustomerResetPassword. */
export function resetPasswordDraft(body: unknown): { tokenValue: string; newPassword: string; version?: number } {
  const draft = asDraft(body, 'CustomerResetPassword');
  const version = optionalVersion(draft);
  return {
    tokenValue: requiredText(draft, 'tokenValue', MAX_TOKEN_LENGTH, false),
    newPassword: requiredText(draft, 'newPassword', MAX_PASSWORD_LENGTH, false),
    ...(version === undefined ? {} : { version }),
  };
}
