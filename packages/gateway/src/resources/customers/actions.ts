import { duplicateField, invalidInput, invalidOperation, systemClock, type Clock, type MessagePayload } from '@herald/model';
import { isDeepStrictEqual } from 'node:util';
import { optionalCustomerGroupReference } from '../customer-groups/reference.js';
import { keyReference } from '../shared/references.js';
import { customFieldActions } from '../shared/custom-fields.js';
import type { ActionHandler, ActionHandlers, ActionScope } from '../shared/update-actions.js';
import { LANGUAGE_TAG, optionalKey, optionalString } from '../shared/validation.js';
import { customerAddressActions } from './address-actions.js';
import { authenticationModeActions } from './authentication-mode.js';
import type { CustomerCredentials } from './credentials.js';
import type { Customer } from './customer.js';
import { dateOfBirth, validEmail } from './draft.js';
import { groupAssignmentActions } from './group-assignments.js';
import { storeReferences } from './stores.js';

/** The optional text fields of a Customer that a `set…` action replaces (absent or null removes). */
type TextField = 'firstName' | 'lastName' | 'middleName' | 'title' | 'salutation' | 'companyName' | 'vatId' | 'externalId' | 'locale' | 'dateOfBirth';

function parseText(field: TextField, value: unknown): string | undefined {
  if (field === 'dateOfBirth') return dateOfBirth(value);
  const text = optionalString(value, field, 256);
  if (field === 'locale' && text !== undefined && !LANGUAGE_TAG.test(text)) {
    throw invalidInput('\'locale\' must be an IETF language tag such as "en" or "de-DE".', { field, invalidValue: text });
  }
  return text;
}

/**
 * `set<Field>`: the reference's message for that field (`messageType`), or none where the
 * reference defines none (middle name, salutation, VAT id, locale). The message carries the new
 * value under the field's name, absent when the value was removed. No change, no message.
 */
function setText(field: TextField, messageType?: string): ActionHandler<Customer> {
  return (customer, action) => {
    const value = parseText(field, action[field]);
    if (value === customer[field]) return [];
    if (value === undefined) delete customer[field];
    else customer[field] = value;
    if (messageType === undefined) return [];
    return [{ type: messageType, ...(value === undefined ? {} : { [field]: value }) }];
  };
}

/** CustomerStoresSet (`stores`, `oldStores`) for every change of the stores (setStores, addStore, removeStore). */
function storesChanged(customer: Customer, oldStores: Customer['stores']): MessagePayload[] {
  if (isDeepStrictEqual(customer.stores, oldStores)) return [];
  return [{ type: 'CustomerStoresSet', stores: customer.stores, oldStores }];
}

/**
 * The e-mail is unique per project among global customers and per store among in-store ones: a
 * new e-mail, or new stores, must not collide with another customer in any of its scopes.
 */
async function assertEmailFree(credentials: CustomerCredentials, customer: Customer, email: string, scope: ActionScope): Promise<void> {
  const storeKeys = customer.stores.length === 0 ? [undefined] : customer.stores.map((store) => store.key);
  for (const storeKey of storeKeys) {
    if (await credentials.emailTaken(scope.reader.tx, scope.ctx.projectKey, email, storeKey, customer.id)) throw duplicateField('email', email);
  }
}

function storeActions(credentials: CustomerCredentials): ActionHandlers<Customer> {
  const changeStores = async (customer: Customer, next: Customer['stores'], scope: ActionScope): Promise<MessagePayload[]> => {
    const oldStores = customer.stores;
    customer.stores = next;
    const messages = storesChanged(customer, oldStores);
    if (messages.length > 0) await assertEmailFree(credentials, customer, customer.email, scope);
    return messages;
  };
  return {
    async setStores(customer, action, scope) {
      return changeStores(customer, await storeReferences(action.stores, 'stores', scope.reader.get), scope);
    },
    async addStore(customer, action, scope) {
      if (action.store === undefined || action.store === null) throw invalidInput("'store' is required.", { field: 'store' });
      const store = await keyReference(scope.reader.get, 'store', action.store, 'store');
      if (customer.stores.some((known) => known.key === store.key)) return [];
      return changeStores(customer, [...customer.stores, store], scope);
    },
    async removeStore(customer, action, scope) {
      if (action.store === undefined || action.store === null) throw invalidInput("'store' is required.", { field: 'store' });
      const store = await keyReference(scope.reader.get, 'store', action.store, 'store');
      return changeStores(
        customer,
        customer.stores.filter((known) => known.key !== store.key),
        scope,
      );
    },
  };
}

/** Customer update actions of the reference's CustomerUpdateAction and the messages they cause. */
export function customerActions(credentials: CustomerCredentials, clock: Clock = systemClock): ActionHandlers<Customer> {
  return {
    async changeEmail(customer, action, scope) {
      const email = validEmail(action.email);
      if (email === customer.email) return [];
      await assertEmailFree(credentials, customer, email, scope);
      const oldEmail = customer.email;
      customer.email = email;
      customer.isEmailVerified = false;
      return [{ type: 'CustomerEmailChanged', email, oldEmail }];
    },
    setFirstName: setText('firstName', 'CustomerFirstNameSet'),
    setLastName: setText('lastName', 'CustomerLastNameSet'),
    setMiddleName: setText('middleName'),
    setTitle: setText('title', 'CustomerTitleSet'),
    setSalutation: setText('salutation'),
    setCompanyName: setText('companyName', 'CustomerCompanyNameSet'),
    setVatId: setText('vatId'),
    setExternalId: setText('externalId', 'CustomerExternalIdSet'),
    setLocale: setText('locale'),
    setDateOfBirth: setText('dateOfBirth', 'CustomerDateOfBirthSet'),
    /** CustomerSetCustomerNumberAction: "Once set, it cannot be changed." */
    setCustomerNumber(customer, action) {
      const customerNumber = optionalString(action.customerNumber, 'customerNumber', 256);
      if (customerNumber === customer.customerNumber) return [];
      if (customer.customerNumber !== undefined) {
        throw invalidOperation(`The customer number '${customer.customerNumber}' is set already and cannot be changed.`);
      }
      if (customerNumber !== undefined) customer.customerNumber = customerNumber;
      return [];
    },
    setKey(customer, action) {
      const key = optionalKey(action.key);
      if (key === undefined) delete customer.key;
      else customer.key = key;
      return [];
    },
    /** CustomerSetCustomerGroupAction: absent removes the group; CustomerGroupSet carries the new one. */
    async setCustomerGroup(customer, action, { reader }) {
      const customerGroup = await optionalCustomerGroupReference(reader.get, action.customerGroup, 'customerGroup');
      if (customerGroup?.id === customer.customerGroup?.id) return [];
      if (customerGroup === undefined) delete customer.customerGroup;
      else customer.customerGroup = customerGroup;
      return [{ type: 'CustomerGroupSet', ...(customerGroup === undefined ? {} : { customerGroup }) }];
    },
    ...customerAddressActions,
    ...storeActions(credentials),
    ...groupAssignmentActions,
    ...authenticationModeActions(credentials, clock),
    ...customFieldActions<Customer>('customer', { replacedAs: 'previous' }),
  };
}
