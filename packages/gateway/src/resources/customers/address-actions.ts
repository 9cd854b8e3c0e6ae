import { isDeepStrictEqual } from 'node:util';
import { invalidInput, type MessagePayload } from '@herald/model';
import { addressFromInput, ADDRESS_CUSTOM_FIELDS_TYPE_ID } from '../shared/owned-addresses.js';
import { customFieldName, customFromDraft, validateCustomFields, type TypeDocument } from '../shared/custom-fields.js';
import type { ActionHandler, ActionHandlers } from '../shared/update-actions.js';
import { assertAddressLimits, DEFAULT_ID, findAddress, ID_LIST, newAddress, rolesOf, selectsAddress, type AddressRole } from './addresses.js';
import type { Customer } from './customer.js';

/*
 * The address actions of the reference's CustomerUpdateAction and the messages each produces
 * (CustomerAddressAdded/Changed/Removed, Customer{Shipping,Billing}AddressAdded/Removed,
 * CustomerDefault{Shipping,Billing}AddressSet, CustomerAddressCustom*). An action that changes
 * nothing emits nothing, so the version does not move (DocumentStore.nextVersion).
 */

type Handler = ActionHandler<Customer>;

function addToList(role: AddressRole): Handler {
  return (customer, action) => {
    const address = findAddress(customer, action);
    const ids = customer[ID_LIST[role]];
    if (ids.includes(address.id)) return [];
    ids.push(address.id);
    return [{ type: `Customer${role}AddressAdded`, address }];
  };
}

function removeFromList(role: AddressRole): Handler {
  return (customer, action) => {
    const address = findAddress(customer, action);
    if (!customer[ID_LIST[role]].includes(address.id)) return [];
    customer[ID_LIST[role]] = customer[ID_LIST[role]].filter((id) => id !== address.id);
    // The default of a kind is one of that kind's addresses.
    if (customer[DEFAULT_ID[role]] === address.id) delete customer[DEFAULT_ID[role]];
    return [{ type: `Customer${role}AddressRemoved`, address }];
  };
}

/** `setDefault…Address`: without an address the default is unset; the default joins its list. */
function setDefault(role: AddressRole): Handler {
  return (customer, action) => {
    const type = `CustomerDefault${role}AddressSet`;
    if (!selectsAddress(action)) {
      if (customer[DEFAULT_ID[role]] === undefined) return [];
      delete customer[DEFAULT_ID[role]];
      return [{ type }];
    }
    const address = findAddress(customer, action);
    if (customer[DEFAULT_ID[role]] === address.id) return [];
    customer[DEFAULT_ID[role]] = address.id;
    if (!customer[ID_LIST[role]].includes(address.id)) customer[ID_LIST[role]].push(address.id);
    return [{ type, address }];
  };
}

const addressCustomFieldActions: ActionHandlers<Customer> = {
  async setAddressCustomType(customer, action, { reader }) {
    const address = findAddress(customer, action);
    const previousTypeId = address.custom?.type.id;
    const previous = previousTypeId === undefined ? {} : { previousTypeId };
    if (action.type === undefined || action.type === null) {
      if (address.custom === undefined) return [];
      delete address.custom;
      return [{ type: 'CustomerAddressCustomTypeRemoved', ...previous, addressId: address.id }];
    }
    const custom = await customFromDraft({ type: action.type, fields: action.fields }, ADDRESS_CUSTOM_FIELDS_TYPE_ID, { load: reader.get });
    if (custom === undefined || isDeepStrictEqual(custom, address.custom)) return [];
    address.custom = custom;
    return [{ type: 'CustomerAddressCustomTypeSet', customFields: custom, ...previous, addressId: address.id }];
  },
  async setAddressCustomField(customer, action, { reader }) {
    const address = findAddress(customer, action);
    const name = customFieldName(action.name);
    if (address.custom === undefined) {
      throw invalidInput(`The address '${address.id}' has no custom type; use setAddressCustomType first.`, { field: 'addressId' });
    }
    const fields = address.custom.fields;
    const existed = Object.hasOwn(fields, name);
    if (action.value === undefined || action.value === null) {
      if (!existed) return [];
      delete fields[name];
      return [{ type: 'CustomerAddressCustomFieldRemoved', name, addressId: address.id }];
    }
    const type = await reader.get<TypeDocument>('type', { id: address.custom.type.id });
    if (type === undefined) throw invalidInput(`The custom type of the address '${address.id}' no longer exists; use setAddressCustomType.`);
    validateCustomFields(type, { [name]: action.value }, false);
    const previousValue = fields[name];
    if (existed && isDeepStrictEqual(previousValue, action.value)) return [];
    fields[name] = action.value;
    const message: MessagePayload = existed
      ? { type: 'CustomerAddressCustomFieldChanged', name, value: action.value, previousValue, addressId: address.id }
      : { type: 'CustomerAddressCustomFieldAdded', name, value: action.value, addressId: address.id };
    return [message];
  },
};

export const customerAddressActions: ActionHandlers<Customer> = {
  async addAddress(customer, action, { reader }) {
    if (action.address === undefined || action.address === null) throw invalidInput("'address' is required.", { field: 'address' });
    const address = await newAddress(action.address, 'address', customer.addresses, reader.get);
    customer.addresses.push(address);
    assertAddressLimits(customer.addresses);
    return [{ type: 'CustomerAddressAdded', address }];
  },
  async changeAddress(customer, action, { reader }) {
    const current = findAddress(customer, action);
    if (action.address === undefined || action.address === null) throw invalidInput("'address' is required.", { field: 'address' });
    // Replaced as given; the id stays, so the lists and defaults keep pointing at it.
    const address = { id: current.id, ...(await addressFromInput(action.address, 'address', reader.get)) };
    if (isDeepStrictEqual(address, current)) return [];
    customer.addresses = customer.addresses.map((candidate) => (candidate.id === current.id ? address : candidate));
    assertAddressLimits(customer.addresses);
    return [{ type: 'CustomerAddressChanged', address, addressRoles: rolesOf(customer, address.id) }];
  },
  removeAddress(customer, action) {
    const address = findAddress(customer, action);
    const addressRoles = rolesOf(customer, address.id);
    customer.addresses = customer.addresses.filter((candidate) => candidate.id !== address.id);
    for (const role of ['Shipping', 'Billing'] as const) {
      customer[ID_LIST[role]] = customer[ID_LIST[role]].filter((id) => id !== address.id);
      if (customer[DEFAULT_ID[role]] === address.id) delete customer[DEFAULT_ID[role]];
    }
    return [{ type: 'CustomerAddressRemoved', address, addressRoles }];
  },
  setDefaultShippingAddress: setDefault('Shipping'),
  setDefaultBillingAddress: setDefault('Billing'),
  addShippingAddressId: addToList('Shipping'),
  addBillingAddressId: addToList('Billing'),
  removeShippingAddressId: removeFromList('Shipping'),
  removeBillingAddressId: removeFromList('Billing'),
  ...addressCustomFieldActions,
};
