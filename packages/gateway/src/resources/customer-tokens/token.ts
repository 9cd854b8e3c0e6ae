import { ApiError, type BaseResource, type MessagePayload } from '@herald/model';

/**
 * The two kinds of customer token (reference: types/customer/CustomerToken.raml): e-mail
 * verification and password reset. Each is its own resource type of §2.4's ChangeSubscription
 * list, so a subscription to `customer-email-token` receives ResourceCreated when one is issued
 * and ResourceDeleted when it is used, invalidated or swept after expiry.
 */
export type CustomerTokenKind = 'email' | 'password';

export const TOKEN_TYPE_IDS = { email: 'customer-email-token', password: 'customer-password-token' } as const satisfies Record<CustomerTokenKind, string>;

/**
 * What Herald stores of a token: never its value, only the SHA-256 of it (a 256-bit random value
 * needs no slow hash; oauth/secrets.ts says why). Found again by that hash through the GIN index
 * on the document.
 */
export interface StoredCustomerToken extends BaseResource {
  customerId: string;
  valueHash: string;
  expiresAt: string;
  invalidateOlderTokens: boolean;
}

/** The reference's CustomerToken: the create answer, the only place the raw value ever appears. */
export interface CustomerToken {
  id: string;
  customerId: string;
  value: string;
  expiresAt: string;
  invalidateOlderTokens: boolean;
  createdAt: string;
  lastModifiedAt: string;
  createdBy?: BaseResource['createdBy'];
  lastModifiedBy?: BaseResource['lastModifiedBy'];
}

export function tokenAnswer(stored: StoredCustomerToken, value: string): CustomerToken {
  const { id, customerId, expiresAt, invalidateOlderTokens, createdAt, lastModifiedAt, createdBy, lastModifiedBy } = stored;
  return {
    id,
    customerId,
    value,
    expiresAt,
    invalidateOlderTokens,
    createdAt,
    lastModifiedAt,
    ...(createdBy === undefined ? {} : { createdBy }),
    ...(lastModifiedBy === undefined ? {} : { lastModifiedBy }),
  };
}

/**
 * Customer{Email,Password}TokenCreated "include the token's value if the token's validity is 60
 * minutes or less" (resources/customers.raml). Herald's rule is stricter: a token value never
 * leaves the create answer (messages are stored, delivered and logged by destinations), so where
 * the reference has the value, the message carries it masked like a payment method token
 * (payments/token.ts): the last four characters, so an operator can still tell tokens apart.
 */
const VALUE_IN_MESSAGE_MAX_MINUTES = 60;

export function maskedTokenValue(value: string): string {
  return `${'*'.repeat(Math.max(value.length - 4, 4))}${value.slice(-4)}`;
}

export function createdMessage(kind: CustomerTokenKind, stored: StoredCustomerToken, value: string, ttlMinutes: number): MessagePayload {
  return {
    type: kind === 'email' ? 'CustomerEmailTokenCreated' : 'CustomerPasswordTokenCreated',
    customerId: stored.customerId,
    expiresAt: stored.expiresAt,
    ...(ttlMinutes <= VALUE_IN_MESSAGE_MAX_MINUTES ? { value: maskedTokenValue(value) } : {}),
    invalidateOlderTokens: stored.invalidateOlderTokens,
  };
}

/** ExpiredCustomerEmailToken / ExpiredCustomerPasswordToken (types/error), with the reference's messages. */
export function expiredToken(kind: CustomerTokenKind): ApiError {
  return kind === 'email'
    ? new ApiError(400, { code: 'ExpiredCustomerEmailToken', message: 'The given email token has expired.' })
    : new ApiError(400, { code: 'ExpiredCustomerPasswordToken', message: 'The given password token has expired.' });
}
