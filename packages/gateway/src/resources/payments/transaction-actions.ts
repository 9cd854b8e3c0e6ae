import { invalidOperation, requiredField, type MessagePayload } from '@herald/model';
import type { ActionHandlers, UpdateAction } from '../shared/update-actions.js';
import { optionalDateTime, optionalText, requiredText, transactionFromDraft, transactionState } from './fields.js';
import { nestedCustomActions } from './nested-custom.js';
import type { Payment, Transaction } from './payment.js';

/**
 * The transaction an action names by `transactionId`; the reference's
 * PaymentSetTransactionCustomTypeAction: an unknown id "will fail with an InvalidOperation error"
 * (the same for every transaction action).
 */
function transactionOf(payment: Payment, action: UpdateAction): Transaction {
  const id = requiredText(action.transactionId, 'transactionId');
  const transaction = payment.transactions.find((candidate) => candidate.id === id);
  if (transaction === undefined) throw invalidOperation(`The payment has no transaction with id '${id}'.`);
  return transaction;
}

// The reference has no Transaction custom field messages (types/message has none).
const transactionCustom = nestedCustomActions('transaction', false);

/**
 * The reference's transaction actions (types/payment/updates/PaymentAddTransactionAction …). The
 * reference sets no order on TransactionState changes, so any state may follow any other; the same
 * state again changes nothing and emits no message.
 */
export const transactionActions: ActionHandlers<Payment> = {
  async addTransaction(payment, action, { reader }): Promise<MessagePayload[]> {
    if (action.transaction === undefined || action.transaction === null) throw requiredField('transaction');
    const transaction = await transactionFromDraft(action.transaction, 'transaction', reader.get);
    payment.transactions.push(transaction);
    return [{ type: 'PaymentTransactionAdded', transaction: structuredClone(transaction) }];
  },
  changeTransactionState(payment, action): MessagePayload[] {
    const transaction = transactionOf(payment, action);
    const state = transactionState(action.state, 'state');
    if (state === transaction.state) return [];
    transaction.state = state;
    return [{ type: 'PaymentTransactionStateChanged', transactionId: transaction.id, state }];
  },
  changeTransactionTimestamp(payment, action) {
    const transaction = transactionOf(payment, action);
    const timestamp = optionalDateTime(action.timestamp, 'timestamp');
    if (timestamp === undefined) throw requiredField('timestamp');
    transaction.timestamp = timestamp;
  },
  changeTransactionInteractionId(payment, action) {
    const transaction = transactionOf(payment, action);
    transaction.interactionId = requiredText(action.interactionId, 'interactionId');
  },
  setTransactionInterfaceId(payment, action): MessagePayload[] {
    const transaction = transactionOf(payment, action);
    const interfaceId = optionalText(action.interfaceId, 'interfaceId');
    const oldInterfaceId = transaction.interfaceId;
    if (interfaceId === oldInterfaceId) return [];
    if (interfaceId === undefined) delete transaction.interfaceId;
    else transaction.interfaceId = interfaceId;
    return [
      {
        type: 'PaymentTransactionInterfaceIdSet',
        transactionId: transaction.id,
        ...(interfaceId === undefined ? {} : { newInterfaceId: interfaceId }),
        ...(oldInterfaceId === undefined ? {} : { oldInterfaceId }),
      },
    ];
  },
  setTransactionCustomType(payment, action, scope) {
    return transactionCustom.setCustomType(transactionOf(payment, action), action, scope);
  },
  setTransactionCustomField(payment, action, scope) {
    return transactionCustom.setCustomField(transactionOf(payment, action), action, scope);
  },
};
