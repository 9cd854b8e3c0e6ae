import { invalidInput } from '@herald/model';
import type { DocumentStore, ServerFields } from '@herald/store';
import { workflowState } from '../quotes/workflow.js';
import type { Load } from '../shared/references.js';
import { asDraft, optionalKey } from '../shared/validation.js';
import type { ResourceDefinition } from '../shared/versioned-routes.js';
import { customFromDraft } from '../shared/custom-fields.js';
import {
  customerReference,
  draftList,
  methodInfoFromDraft,
  optionalDateTime,
  optionalMoney,
  optionalText,
  partCustom,
  paymentMoney,
  transactionFromDraft,
} from './fields.js';
import { declarePaymentUniqueValues } from './interface-uniqueness.js';
import { methodInfoActions } from './method-info-actions.js';
import { PAYMENT_TYPE_ID, type Payment, type PaymentStatus } from './payment.js';
import { paymentActions } from './payment-actions.js';
import { paymentForMessage } from './token.js';
import { transactionActions } from './transaction-actions.js';

type PaymentFields = Omit<Payment, ServerFields>;

/** The reference's PaymentStatusDraft: the State must be a PaymentState. */
async function statusFromDraft(value: unknown, load: Load): Promise<PaymentStatus> {
  if (value === undefined || value === null) return {};
  const draft = asDraft(value, 'PaymentStatusDraft');
  const status: PaymentStatus = {};
  const interfaceCode = optionalText(draft.interfaceCode, 'paymentStatus.interfaceCode');
  if (interfaceCode !== undefined) status.interfaceCode = interfaceCode;
  const interfaceText = optionalText(draft.interfaceText, 'paymentStatus.interfaceText');
  if (interfaceText !== undefined) status.interfaceText = interfaceText;
  if (draft.state !== undefined && draft.state !== null) {
    const state = await workflowState(load, draft.state, 'paymentStatus.state', 'PaymentState');
    status.state = { typeId: 'state', id: state.id };
  }
  return status;
}

/** Interface interactions of a draft: each a CustomFieldsDraft for `payment-interface-interaction`. */
async function interactionsFromDraft(value: unknown, load: Load): Promise<Payment['interfaceInteractions']> {
  const interactions: Payment['interfaceInteractions'] = [];
  for (const [index, draft] of draftList(value, 'interfaceInteractions').entries()) {
    if (draft === null || typeof draft !== 'object')
      throw invalidInput(`'interfaceInteractions[${index}]' must be a CustomFieldsDraft.`, { field: 'interfaceInteractions' });
    const custom = await partCustom(draft, 'payment-interface-interaction', load);
    if (custom !== undefined) interactions.push(custom);
  }
  return interactions;
}

/** The deprecated optional fields of PaymentDraft, kept because the reference still has them. */
function deprecatedFields(draft: Record<string, unknown>): Partial<PaymentFields> {
  const fields: Partial<PaymentFields> = {};
  const externalId = optionalText(draft.externalId, 'externalId');
  if (externalId !== undefined) fields.externalId = externalId;
  const amounts = ['amountAuthorized', 'amountPaid', 'amountRefunded'] as const;
  for (const field of amounts) {
    const amount = optionalMoney(draft[field], field);
    if (amount !== undefined) fields[field] = amount;
  }
  const until = optionalDateTime(draft.authorizedUntil, 'authorizedUntil');
  if (until !== undefined) fields.authorizedUntil = until;
  return fields;
}

/** The buyer fields of PaymentDraft: a customer, or an anonymous session (setAnonymousId's rule). */
async function buyerFields(draft: Record<string, unknown>, load: Load): Promise<Partial<PaymentFields>> {
  const fields: Partial<PaymentFields> = {};
  if (draft.customer !== undefined && draft.customer !== null) fields.customer = await customerReference(draft.customer, 'customer', load);
  const anonymousId = optionalText(draft.anonymousId, 'anonymousId');
  if (anonymousId !== undefined) fields.anonymousId = anonymousId;
  return fields;
}

/** The reference's PaymentDraft (types/payment/PaymentDraft.raml): `amountPlanned` is its one required field. */
export async function paymentFromDraft(body: unknown, load: Load): Promise<PaymentFields> {
  const draft = asDraft(body, 'PaymentDraft');
  const fields: PaymentFields = {
    amountPlanned: paymentMoney(draft.amountPlanned, 'amountPlanned'),
    paymentMethodInfo: await methodInfoFromDraft(draft.paymentMethodInfo, load),
    paymentStatus: await statusFromDraft(draft.paymentStatus, load),
    transactions: [],
    interfaceInteractions: await interactionsFromDraft(draft.interfaceInteractions, load),
    ...(await buyerFields(draft, load)),
    ...deprecatedFields(draft),
  };
  for (const [index, transaction] of draftList(draft.transactions, 'transactions').entries()) {
    fields.transactions.push(await transactionFromDraft(transaction, `transactions[${index}]`, load));
  }
  const key = optionalKey(draft.key);
  if (key !== undefined) fields.key = key;
  const interfaceId = optionalText(draft.interfaceId, 'interfaceId');
  if (interfaceId !== undefined) fields.interfaceId = interfaceId;
  const custom = await customFromDraft(draft.custom, PAYMENT_TYPE_ID, { load });
  if (custom !== undefined) fields.custom = custom;
  return fields;
}

/**
 * `/{projectKey}/payments` (reference: resources/payments.raml, types/payment). Messages: the
 * reference's Payment* ones (types/message/Payment*Message.raml): PaymentCreated, transaction,
 * interaction, interface id, status and method info messages. It has none for deleting a payment
 * nor for the payment's own custom fields. Deleting a payment an order references is allowed: the
 * reference names no ReferenceExists for payments (the order keeps the id; expanding it finds
 * nothing). Payments hold personal data, so `dataErasure` is accepted (the reference's trait).
 */
export function paymentDefinition(documents: DocumentStore): ResourceDefinition<Payment> {
  declarePaymentUniqueValues(documents);
  return {
    typeId: PAYMENT_TYPE_ID,
    path: 'payments',
    scopes: { view: ['view_payments'], manage: ['manage_payments'] },
    personalData: true,

    fromDraft: (body, ctx) => paymentFromDraft(body, ctx.load),

    createdMessages: (payment) => [{ type: 'PaymentCreated', payment: paymentForMessage(payment) }],

    actions: {
      ...paymentActions(),
      ...transactionActions,
      ...methodInfoActions(),
    },
  };
}
