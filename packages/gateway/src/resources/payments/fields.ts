import { randomUUID } from 'node:crypto';
import { invalidInput, requiredField, type CustomFields, type Reference } from '@herald/model';
import { customFromDraft, isDateTime } from '../shared/custom-fields.js';
import { centPrecision, currencyCode, isCentAmount, type CentPrecisionMoney } from '../shared/money.js';
import { identifierLocator, loadReferenced, type Load } from '../shared/references.js';
import { localizedString, optionalString } from '../shared/validation.js';
import {
  TRANSACTION_STATES,
  TRANSACTION_TYPES,
  type PaymentMethodInfo,
  type PaymentMethodToken,
  type Transaction,
  type TransactionState,
  type TransactionType,
} from './payment.js';

/** The reference states no lengths for the payment's strings; this bound keeps documents reasonable. */
export const MAX_TEXT = 4096;

const given = (value: unknown): boolean => value !== undefined && value !== null;

function asObject(value: unknown, field: string, shape: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidInput(`'${field}' must be ${shape}.`, { field, invalidValue: value });
  }
  return value as Record<string, unknown>;
}

/**
 * A Money draft in any currency (PaymentDraft.amountPlanned, TransactionDraft.amount): answered as
 * the reference's CentPrecisionMoney. A payment's amounts are never negative: a refund is its own
 * transaction type, not a negative charge.
 */
export function paymentMoney(value: unknown, field: string): CentPrecisionMoney {
  if (!given(value)) throw requiredField(field);
  const money = asObject(value, field, 'Money: {"currencyCode": "EUR", "centAmount": 1000}');
  const code = currencyCode(money.currencyCode, `${field}.currencyCode`);
  if (!isCentAmount(money.centAmount, false)) {
    throw invalidInput(`'${field}.centAmount' must be a non-negative integer (minor units of the currency).`, { field, invalidValue: money.centAmount });
  }
  return centPrecision(code, money.centAmount);
}

/** Optional Money of the deprecated amount fields and actions (absent removes). */
export function optionalMoney(value: unknown, field: string): CentPrecisionMoney | undefined {
  return given(value) ? paymentMoney(value, field) : undefined;
}

/** A `datetime` of the reference (ISO 8601 with its zone). */
export function optionalDateTime(value: unknown, field: string): string | undefined {
  if (!given(value)) return undefined;
  if (typeof value !== 'string' || !isDateTime(value)) {
    throw invalidInput(`'${field}' must be an ISO 8601 date and time with a zone, such as "2024-01-31T12:00:00.000Z".`, { field, invalidValue: value });
  }
  return value;
}

export function requiredText(value: unknown, field: string): string {
  if (!given(value)) throw requiredField(field);
  return optionalString(value, field, MAX_TEXT) as string;
}

export function optionalText(value: unknown, field: string): string | undefined {
  return optionalString(value, field, MAX_TEXT);
}

function oneOf<T extends string>(allowed: readonly T[], value: unknown, field: string): T {
  if (!given(value)) throw requiredField(field);
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw invalidInput(`'${field}' must be one of ${allowed.join(', ')}.`, { field, invalidValue: value });
  }
  return value as T;
}

export const transactionType = (value: unknown, field: string): TransactionType => oneOf(TRANSACTION_TYPES, value, field);
export const transactionState = (value: unknown, field: string): TransactionState => oneOf(TRANSACTION_STATES, value, field);

/** The reference's PaymentMethodToken `{value}`; absent removes. */
export function optionalToken(value: unknown, field: string): PaymentMethodToken | undefined {
  if (!given(value)) return undefined;
  const token = asObject(value, field, 'a PaymentMethodToken: {"value": "…"}');
  return { value: requiredText(token.value, `${field}.value`) };
}

/** The customer a payment belongs to: it must exist (400 ReferencedResourceNotFound otherwise). */
export async function customerReference(value: unknown, field: string, load: Load): Promise<Reference<'customer'>> {
  const customer = await loadReferenced(load, 'customer', identifierLocator(value, field, 'customer'));
  return { typeId: 'customer', id: customer.id };
}

/** A CustomFieldsDraft for a part of the payment, validated against a Type for `resourceTypeId`. */
export async function partCustom(value: unknown, resourceTypeId: string, load: Load): Promise<CustomFields | undefined> {
  return customFromDraft(value, resourceTypeId, { load });
}

/** The reference's TransactionDraft: `type` and `amount` required, `state` defaults to Initial. */
export async function transactionFromDraft(value: unknown, field: string, load: Load): Promise<Transaction> {
  const draft = asObject(value, field, 'a TransactionDraft object');
  const transaction: Transaction = {
    id: randomUUID(),
    type: transactionType(draft.type, `${field}.type`),
    amount: paymentMoney(draft.amount, `${field}.amount`),
    state: given(draft.state) ? transactionState(draft.state, `${field}.state`) : 'Initial',
  };
  const timestamp = optionalDateTime(draft.timestamp, `${field}.timestamp`);
  if (timestamp !== undefined) transaction.timestamp = timestamp;
  const interactionId = optionalText(draft.interactionId, `${field}.interactionId`);
  if (interactionId !== undefined) transaction.interactionId = interactionId;
  const interfaceId = optionalText(draft.interfaceId, `${field}.interfaceId`);
  if (interfaceId !== undefined) transaction.interfaceId = interfaceId;
  // The reference's ResourceTypeId names transactions' custom fields `transaction`.
  const custom = await partCustom(draft.custom, 'transaction', load);
  if (custom !== undefined) transaction.custom = custom;
  return transaction;
}

/** The reference's PaymentMethodInfoDraft; absent is an empty method info. */
export async function methodInfoFromDraft(value: unknown, load: Load): Promise<PaymentMethodInfo> {
  if (!given(value)) return {};
  const field = 'paymentMethodInfo';
  const draft = asObject(value, field, 'a PaymentMethodInfoDraft object');
  const info: PaymentMethodInfo = {};
  const paymentInterface = optionalText(draft.paymentInterface, `${field}.paymentInterface`);
  if (paymentInterface !== undefined) info.paymentInterface = paymentInterface;
  const method = optionalText(draft.method, `${field}.method`);
  if (method !== undefined) info.method = method;
  if (given(draft.name)) info.name = localizedString(draft.name, `${field}.name`);
  const token = optionalToken(draft.token, `${field}.token`);
  if (token !== undefined) info.token = token;
  const interfaceAccount = optionalText(draft.interfaceAccount, `${field}.interfaceAccount`);
  if (interfaceAccount !== undefined) info.interfaceAccount = interfaceAccount;
  const custom = await partCustom(draft.custom, 'payment-method-info', load);
  if (custom !== undefined) info.custom = custom;
  return info;
}

/** An array field of a draft: absent is empty; at most 500 entries, as for other drafts' lists. */
export function draftList(value: unknown, field: string): unknown[] {
  if (!given(value)) return [];
  if (!Array.isArray(value) || value.length > 500) throw invalidInput(`'${field}' must be an array of at most 500 entries.`, { field });
  return value;
}
