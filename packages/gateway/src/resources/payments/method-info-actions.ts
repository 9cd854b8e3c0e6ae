import { isDeepStrictEqual } from 'node:util';
import { invalidOperation, type LocalizedString, type MessagePayload } from '@herald/model';
import type { ActionHandlers, ActionScope, UpdateAction } from '../shared/update-actions.js';
import { localizedString } from '../shared/validation.js';
import { optionalText, optionalToken, requiredText } from './fields.js';
import { nestedCustomActions } from './nested-custom.js';
import type { Payment, PaymentMethodInfo, PaymentMethodToken } from './payment.js';
import { maskedToken } from './token.js';

const infoCustom = nestedCustomActions('payment-method-info', true);

type Info = PaymentMethodInfo;
type OptionalField = 'method' | 'name' | 'token' | 'interfaceAccount';

/** Sets or (undefined) removes one optional field; whether it changed. */
function assign<F extends OptionalField>(info: Info, field: F, value: Info[F] | undefined): boolean {
  if (isDeepStrictEqual(info[field], value)) return false;
  if (value === undefined) delete info[field];
  else info[field] = value;
  return true;
}

/** `<Message> {<field>?, old<Field>?}`, the shape of every PaymentMethodInfo*Set message. */
function setMessage(type: string, field: string, value: unknown, oldValue: unknown): MessagePayload[] {
  const old = `old${field.charAt(0).toUpperCase()}${field.slice(1)}`;
  return [{ type, ...(value === undefined ? {} : { [field]: value }), ...(oldValue === undefined ? {} : { [old]: oldValue }) }];
}

const optionalName = (value: unknown): LocalizedString | undefined => (value === undefined || value === null ? undefined : localizedString(value, 'name'));

/** Token values are masked in Payment messages (reference PaymentMethodToken.value). */
const tokenForMessage = (token: PaymentMethodToken | undefined) => (token === undefined ? undefined : maskedToken(token));

/**
 * setMethodInfoInterface: "Once set, the `paymentInterface` of the `paymentMethodInfo` cannot be
 * changed" (400 InvalidOperation; the same value again changes nothing), and with the payment's
 * `interfaceId` it must be unique (400 DuplicateField).
 */
function setInterface(payment: Payment, value: unknown): MessagePayload[] {
  const paymentInterface = requiredText(value, 'interface');
  const old = payment.paymentMethodInfo.paymentInterface;
  if (old === paymentInterface) return [];
  if (old !== undefined) throw invalidOperation(`The payment's paymentInterface is '${old}' and cannot be changed.`);
  // A pair of interface and interfaceId another payment holds is refused by the store's claim (interface-uniqueness.ts).
  payment.paymentMethodInfo.paymentInterface = paymentInterface;
  return [{ type: 'PaymentMethodInfoInterfaceSet', interface: paymentInterface }];
}

function setMethod(info: Info, value: unknown): MessagePayload[] {
  const old = info.method;
  const method = optionalText(value, 'method');
  return assign(info, 'method', method) ? setMessage('PaymentMethodInfoMethodSet', 'method', method, old) : [];
}

function setName(info: Info, value: unknown): MessagePayload[] {
  const old = info.name;
  const name = optionalName(value);
  return assign(info, 'name', name) ? setMessage('PaymentMethodInfoNameSet', 'name', name, old) : [];
}

function setToken(info: Info, value: unknown): MessagePayload[] {
  const old = info.token;
  const token = optionalToken(value, 'token');
  return assign(info, 'token', token) ? setMessage('PaymentMethodInfoTokenSet', 'token', tokenForMessage(token), tokenForMessage(old)) : [];
}

function setInterfaceAccount(info: Info, value: unknown): MessagePayload[] {
  const old = info.interfaceAccount;
  const account = optionalText(value, 'interfaceAccount');
  return assign(info, 'interfaceAccount', account) ? setMessage('PaymentMethodInfoInterfaceAccountSet', 'interfaceAccount', account, old) : [];
}

/**
 * PaymentSetMethodInfoAction: "Only fields with explicitly provided values will be updated", and
 * each field's "If omitted, any existing value is removed" read together: a field present in the
 * action (null removes it) is set as its single action would set it, with that action's message;
 * a field absent from the action is left as it is.
 */
async function setMethodInfo(payment: Payment, action: UpdateAction, scope: ActionScope): Promise<MessagePayload[]> {
  const info = payment.paymentMethodInfo;
  const messages: MessagePayload[] = [];
  const present = (field: string) => Object.hasOwn(action, field);
  if (present('paymentInterface') && action.paymentInterface !== null) messages.push(...setInterface(payment, action.paymentInterface));
  if (present('method')) messages.push(...setMethod(info, action.method));
  if (present('name')) messages.push(...setName(info, action.name));
  if (present('token')) messages.push(...setToken(info, action.token));
  if (present('interfaceAccount')) messages.push(...setInterfaceAccount(info, action.interfaceAccount));
  if (present('custom')) {
    const custom = action.custom as { type?: unknown; fields?: unknown } | null;
    const asAction = { action: 'setMethodInfoCustomType', type: custom?.type, fields: custom?.fields };
    messages.push(...(await infoCustom.setCustomType(info, asAction, scope)));
  }
  return messages;
}

/** The reference's PaymentSetMethodInfo* actions, each with its PaymentMethodInfo* message. */
export function methodInfoActions(): ActionHandlers<Payment> {
  return {
    setMethodInfoInterface: (payment, action) => setInterface(payment, action.interface),
    setMethodInfoMethod: (payment, action) => setMethod(payment.paymentMethodInfo, action.method),
    setMethodInfoName: (payment, action) => setName(payment.paymentMethodInfo, action.name),
    setMethodInfoToken: (payment, action) => setToken(payment.paymentMethodInfo, action.token),
    setMethodInfoInterfaceAccount: (payment, action) => setInterfaceAccount(payment.paymentMethodInfo, action.interfaceAccount),
    setMethodInfoCustomType: (payment, action, scope) => infoCustom.setCustomType(payment.paymentMethodInfo, action, scope),
    setMethodInfoCustomField: (payment, action, scope) => infoCustom.setCustomField(payment.paymentMethodInfo, action, scope),
    setMethodInfo: (payment, action, scope) => setMethodInfo(payment, action, scope),
  };
}
