import type { DocumentStore, UniqueValue } from '@herald/store';
import { PAYMENT_TYPE_ID, type Payment } from './payment.js';

/**
 * PaymentDraft.interfaceId: "The combination of `interfaceId` and the `paymentInterface` field on
 * PaymentMethodInfo must be unique" (400 DuplicateField `interfaceId`); claimed only when both are
 * set. The store claims the pair in the write itself (packages/store documents/unique-values.ts;
 * migration 014 claims the payments stored before), so two writes racing for one pair cannot both
 * succeed.
 *
 * The claimed text is the interface as a JSON string, a colon and the interfaceId: a JSON string
 * ends at its closing quote, so no two pairs share a text. Migration 014 builds the same text from
 * jsonb (whose text of a string escapes as JSON.stringify does).
 */
export function paymentUniqueValues(payment: Payment): UniqueValue[] {
  const { interfaceId } = payment;
  const paymentInterface = payment.paymentMethodInfo.paymentInterface;
  if (interfaceId === undefined || paymentInterface === undefined) return [];
  return [{ field: 'interfaceId', value: `${JSON.stringify(paymentInterface)}:${interfaceId}`, duplicateValue: interfaceId }];
}

export function declarePaymentUniqueValues(documents: DocumentStore): void {
  documents.declareUniqueValues<Payment>(PAYMENT_TYPE_ID, paymentUniqueValues);
}
