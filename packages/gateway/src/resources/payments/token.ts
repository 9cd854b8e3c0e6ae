import type { Payment, PaymentMethodToken } from './payment.js';

/**
 * The reference's PaymentMethodToken.value "is masked in the payload of Payment and PaymentMethod
 * messages" and for MyPayments. It names no mask; Herald keeps the last four characters, as card
 * tokens are usually shown.
 */
export function maskedToken(token: PaymentMethodToken): PaymentMethodToken {
  const visible = token.value.length > 8 ? token.value.slice(-4) : '';
  return { value: `${'*'.repeat(Math.max(token.value.length - visible.length, 4))}${visible}` };
}

/** A copy of the payment for a message, its method token masked. */
export function paymentForMessage(payment: Payment): Payment {
  const copy = structuredClone(payment);
  if (copy.paymentMethodInfo.token !== undefined) copy.paymentMethodInfo.token = maskedToken(copy.paymentMethodInfo.token);
  return copy;
}
