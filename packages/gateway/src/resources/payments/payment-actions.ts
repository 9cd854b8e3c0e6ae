import { invalidInput, invalidOperation, type MessagePayload } from '@herald/model';
import { transitionRefusal } from '../quote-requests/transition.js';
import { workflowState } from '../quotes/workflow.js';
import { customFieldActions } from '../shared/custom-fields.js';
import type { ActionHandlers } from '../shared/update-actions.js';
import { optionalKey } from '../shared/validation.js';
import type { State } from '../states/state.js';
import { customerReference, optionalDateTime, optionalMoney, optionalText, paymentMoney, requiredText } from './fields.js';
import { nestedCustomActions } from './nested-custom.js';
import { PAYMENT_TYPE_ID, type Payment } from './payment.js';

type AmountField = 'amountPaid' | 'amountRefunded' | 'amountAuthorized';

/** Sets or (undefined) removes an optional field of the payment. */
function setOptional<F extends 'anonymousId' | 'externalId' | 'authorizedUntil' | AmountField | 'key'>(
  payment: Payment,
  field: F,
  value: Payment[F] | undefined,
): void {
  if (value === undefined) delete payment[field];
  else payment[field] = value;
}

/** The deprecated PaymentSetAmountPaid/RefundedAction: `amount` optional, absent removes. */
const amountAction =
  (field: AmountField): ActionHandlers<Payment>[string] =>
  (payment, action) => {
    setOptional(payment, field, optionalMoney(action.amount, 'amount'));
  };

const interactionCustom = nestedCustomActions('payment-interface-interaction', false);

/** The payment's own actions (everything but transactions and the method info). */
export function paymentActions(): ActionHandlers<Payment> {
  return {
    changeAmountPlanned(payment, action) {
      payment.amountPlanned = paymentMoney(action.amount, 'amount');
    },
    setAmountPaid: amountAction('amountPaid'),
    setAmountRefunded: amountAction('amountRefunded'),
    /** Deprecated PaymentSetAuthorizationAction {amount?, until?}: without an amount both are removed. */
    setAuthorization(payment, action) {
      const amount = optionalMoney(action.amount, 'amount');
      setOptional(payment, 'amountAuthorized', amount);
      setOptional(payment, 'authorizedUntil', amount === undefined ? undefined : optionalDateTime(action.until, 'until'));
    },
    async setCustomer(payment, action, { reader }) {
      if (action.customer === undefined || action.customer === null) delete payment.customer;
      else payment.customer = await customerReference(action.customer, 'customer', reader.get);
    },
    /** PaymentSetAnonymousIdAction: "If the Payment is already associated with a Customer, an InvalidOperation". */
    setAnonymousId(payment, action) {
      const anonymousId = optionalText(action.anonymousId, 'anonymousId');
      if (anonymousId !== undefined && payment.customer !== undefined) {
        throw invalidOperation('The payment belongs to a customer; it cannot have an anonymousId too.');
      }
      setOptional(payment, 'anonymousId', anonymousId);
    },
    setExternalId(payment, action) {
      setOptional(payment, 'externalId', optionalText(action.externalId, 'externalId'));
    },
    setKey(payment, action) {
      setOptional(payment, 'key', optionalKey(action.key));
    },
    /** PaymentSetInterfaceIdAction: "The value cannot be modified after it is set"; unique with paymentInterface. */
    setInterfaceId(payment, action): MessagePayload[] {
      const interfaceId = requiredText(action.interfaceId, 'interfaceId');
      const old = payment.interfaceId;
      if (old === interfaceId) return [];
      if (old !== undefined) throw invalidOperation(`The payment's interfaceId is '${old}' and cannot be changed.`);
      // A pair of interface and interfaceId another payment holds is refused by the store's claim (interface-uniqueness.ts).
      payment.interfaceId = interfaceId;
      return [{ type: 'PaymentInterfaceIdSet', interfaceId }];
    },
    setStatusInterfaceCode(payment, action): MessagePayload[] {
      const interfaceCode = optionalText(action.interfaceCode, 'interfaceCode');
      if (interfaceCode === payment.paymentStatus.interfaceCode) return [];
      if (interfaceCode === undefined) delete payment.paymentStatus.interfaceCode;
      else payment.paymentStatus.interfaceCode = interfaceCode;
      // PaymentStatusInterfaceCodeSetMessagePayload still requires its deprecated `paymentId`.
      return [{ type: 'PaymentStatusInterfaceCodeSet', paymentId: payment.id, ...(interfaceCode === undefined ? {} : { interfaceCode }) }];
    },
    /** PaymentSetStatusInterfaceTextAction: `interfaceText` required; "an empty string to remove". */
    setStatusInterfaceText(payment, action) {
      if (action.interfaceText === undefined || action.interfaceText === null) throw invalidInput("'interfaceText' is required.", { field: 'interfaceText' });
      const text = requiredText(action.interfaceText, 'interfaceText');
      if (text === '') delete payment.paymentStatus.interfaceText;
      else payment.paymentStatus.interfaceText = text;
    },
    /** PaymentTransitionStateAction: the §3.1 workflow rules of the other resources, a PaymentState. */
    async transitionState(payment, action, { reader }): Promise<MessagePayload[]> {
      const force = action.force ?? false;
      if (typeof force !== 'boolean') throw invalidInput("'force' must be a boolean.", { field: 'force' });
      if (action.state === undefined || action.state === null) throw invalidInput("'state' is required.", { field: 'state' });
      const target = await workflowState(reader.get, action.state, 'state', 'PaymentState');
      const currentRef = payment.paymentStatus.state;
      if (!force) {
        const current = currentRef === undefined ? undefined : await reader.get<State>('state', { id: currentRef.id });
        const refusal = transitionRefusal(current, currentRef !== undefined, target);
        if (refusal !== undefined) throw invalidOperation(`${refusal.replace('quote request', 'payment')} Use "force": true to override.`);
      }
      payment.paymentStatus.state = { typeId: 'state', id: target.id };
      return [{ type: 'PaymentStatusStateTransition', state: { typeId: 'state', id: target.id }, force }];
    },
    /** PaymentAddInterfaceInteractionAction {type, fields}: a CustomFields entry, PaymentInteractionAdded. */
    async addInterfaceInteraction(payment, action, scope): Promise<MessagePayload[]> {
      const interaction: { custom?: Payment['custom'] } = {};
      await interactionCustom.setCustomType(interaction, { action: 'setCustomType', type: action.type ?? {}, fields: action.fields }, scope);
      if (interaction.custom === undefined) throw invalidInput("'type' must identify a Type.", { field: 'type' });
      payment.interfaceInteractions.push(interaction.custom);
      return [{ type: 'PaymentInteractionAdded', interaction: structuredClone(interaction.custom) }];
    },
    // The reference has no Payment custom field messages (types/message/PaymentCustom* do not exist).
    ...customFieldActions<Payment>(PAYMENT_TYPE_ID, { messages: false }),
  };
}
