import type { BaseResource, CustomFields, LocalizedString, Reference } from '@herald/model';
import type { CentPrecisionMoney } from '../shared/money.js';

export const PAYMENT_TYPE_ID = 'payment';

/** The reference's TransactionType (types/payment/TransactionType.raml). */
export const TRANSACTION_TYPES = ['Authorization', 'CancelAuthorization', 'Charge', 'Refund', 'Chargeback'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** The reference's TransactionState (types/payment/TransactionState.raml); a draft defaults to Initial. */
export const TRANSACTION_STATES = ['Initial', 'Pending', 'Success', 'Failure'] as const;
export type TransactionState = (typeof TRANSACTION_STATES)[number];

/** The reference's PaymentMethodToken: the tokenized payment method. */
export interface PaymentMethodToken {
  value: string;
}

/** The reference's Transaction: `id` is Herald's, the rest as the draft gave it. */
export interface Transaction {
  id: string;
  timestamp?: string;
  type: TransactionType;
  amount: CentPrecisionMoney;
  interactionId?: string;
  state: TransactionState;
  custom?: CustomFields;
  interfaceId?: string;
}

/** The reference's PaymentMethodInfo: a snapshot of the method used; every field optional. */
export interface PaymentMethodInfo {
  paymentInterface?: string;
  method?: string;
  name?: LocalizedString;
  token?: PaymentMethodToken;
  interfaceAccount?: string;
  custom?: CustomFields;
}

/** The reference's PaymentStatus: the PSP's code and text, and the custom workflow State. */
export interface PaymentStatus {
  interfaceCode?: string;
  interfaceText?: string;
  state?: Reference<'state'>;
}

/**
 * The reference's Payment (types/payment/Payment.raml). `externalId`, `amountAuthorized`,
 * `authorizedUntil`, `amountPaid` and `amountRefunded` are deprecated there but still part of the
 * type and its draft and actions, so Herald keeps them.
 */
export interface Payment extends BaseResource {
  key?: string;
  customer?: Reference<'customer'>;
  anonymousId?: string;
  externalId?: string;
  interfaceId?: string;
  amountPlanned: CentPrecisionMoney;
  amountAuthorized?: CentPrecisionMoney;
  authorizedUntil?: string;
  amountPaid?: CentPrecisionMoney;
  amountRefunded?: CentPrecisionMoney;
  paymentMethodInfo: PaymentMethodInfo;
  paymentStatus: PaymentStatus;
  transactions: Transaction[];
  interfaceInteractions: CustomFields[];
  custom?: CustomFields;
}
