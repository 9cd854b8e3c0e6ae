import { isDeepStrictEqual } from 'node:util';
import { invalidInput, invalidOperation, type MessagePayload } from '@herald/model';
import { keyReference, type Load } from '../shared/references.js';
import { customFieldActions, customFieldName, customFromDraft, validateCustomFields, type TypeDocument } from '../shared/custom-fields.js';
import type { ActionHandler, ActionHandlers, UpdateAction } from '../shared/update-actions.js';
import { ADDRESS_CUSTOM_FIELDS_TYPE_ID, addressFromInput, newAddressId } from '../shared/owned-addresses.js';
import { assertUniqueAddressKeys, findAddress, selectsAddress } from './address.js';
import { MAX_ASSOCIATES, associateFromDraft, associateOf, associatesFromDrafts, customerReference } from './associates.js';
import { BUSINESS_UNIT_STATUSES, BUSINESS_UNIT_TYPE_ID, isOneOf, type Associate, type BusinessUnit, type BusinessUnitAddress } from './business-unit.js';
import { MAX_STORES, optionalEmail, requiredName, storeModeOf, storeReferences } from './draft.js';
import { assertNotBelow, childAncestry, loadParent, setAncestry } from './hierarchy.js';
import { withRoleAssignments } from './modes.js';
import { assertBuyerAssignable, loadLookup, requireAddChildUnits } from './my-permissions.js';

/*
 * The 25 update actions of §4.3, named as the GraphQL members (REST sends `{action: 'changeName',
 * name}`). Each emits the §6.1 message of what it changed (type literal = the payload name); an
 * action that changes nothing (adding what is there, removing what is not) emits none, so the
 * version does not move either.
 */

type Handler = ActionHandler<BusinessUnit>;

function required(action: UpdateAction, field: string): unknown {
  const value = action[field];
  if (value === undefined || value === null) throw invalidInput(`'${field}' is required.`, { field });
  return value;
}

/** Lists that name addresses by id (`shippingAddressIds`, `billingAddressIds`). */
type AddressIdList = 'shippingAddressIds' | 'billingAddressIds';

function addToList(list: AddressIdList, messageType: string): Handler {
  return (unit, action) => {
    const address = findAddress(unit, action);
    if (unit[list].includes(address.id)) return [];
    unit[list].push(address.id);
    return [{ type: messageType, address }];
  };
}

function removeFromList(list: AddressIdList, defaultField: 'defaultShippingAddressId' | 'defaultBillingAddressId', messageType: string): Handler {
  return (unit, action) => {
    const address = findAddress(unit, action);
    if (!unit[list].includes(address.id)) return [];
    unit[list] = unit[list].filter((id) => id !== address.id);
    // The default of a kind is one of that kind's addresses.
    if (unit[defaultField] === address.id) delete unit[defaultField];
    return [{ type: messageType, address }];
  };
}

function setDefault(list: AddressIdList, defaultField: 'defaultShippingAddressId' | 'defaultBillingAddressId', messageType: string): Handler {
  return (unit, action) => {
    if (!selectsAddress(action)) {
      if (unit[defaultField] === undefined) return [];
      delete unit[defaultField];
      return [{ type: messageType }];
    }
    const address = findAddress(unit, action);
    if (unit[defaultField] === address.id) return [];
    unit[defaultField] = address.id;
    if (!unit[list].includes(address.id)) unit[list].push(address.id);
    return [{ type: messageType, address }];
  };
}

/** The reference's AddressRole list of an address (BusinessUnitAddressChanged/Removed `addressRoles`). */
function addressRoles(unit: BusinessUnit, addressId: string): Array<'Shipping' | 'Billing'> {
  const roles: Array<'Shipping' | 'Billing'> = [];
  if (unit.shippingAddressIds.includes(addressId)) roles.push('Shipping');
  if (unit.billingAddressIds.includes(addressId)) roles.push('Billing');
  return roles;
}

function requireExplicitStores(unit: BusinessUnit): void {
  if (unit.storeMode !== 'Explicit') {
    throw invalidOperation(`The stores of '${unit.key}' come from its parent (storeMode FromParent); use setStoreMode first.`);
  }
}

/** The unit's own custom fields: the shared handlers (messages `BusinessUnitCustomTypeSet`, …). */
const businessUnitCustomFields = customFieldActions<BusinessUnit>(BUSINESS_UNIT_TYPE_ID);

function shared(handlers: ActionHandlers<BusinessUnit>, name: string): Handler {
  const found = handlers[name];
  if (found === undefined) throw new Error(`The shared update action '${name}' does not exist.`);
  return found;
}

/** Custom fields of one address (`setAddressCustomType`, `setAddressCustomField`). */
const addressCustomFieldActions = {
  async setAddressCustomType(unit, action, { reader }) {
    const address = findAddress(unit, action);
    if (action.type === undefined || action.type === null) {
      if (address.custom === undefined) return [];
      delete address.custom;
      return [{ type: 'BusinessUnitAddressCustomTypeRemoved', addressId: address.id }];
    }
    const custom = await customFromDraft({ type: action.type, fields: action.fields }, ADDRESS_CUSTOM_FIELDS_TYPE_ID, { load: reader.get });
    if (custom === undefined) return [];
    address.custom = custom;
    return [{ type: 'BusinessUnitAddressCustomTypeSet', customFields: custom, addressId: address.id }];
  },
  async setAddressCustomField(unit, action, { reader }) {
    const address = findAddress(unit, action);
    const name = customFieldName(action.name);
    if (address.custom === undefined) {
      throw invalidInput(`The address '${address.id}' has no custom type; use setAddressCustomType first.`, { field: 'addressId' });
    }
    const existed = Object.hasOwn(address.custom.fields, name);
    if (action.value === undefined || action.value === null) {
      if (!existed) return [];
      delete address.custom.fields[name];
      return [{ type: 'BusinessUnitAddressCustomFieldRemoved', name, addressId: address.id }];
    }
    const type = await reader.get<TypeDocument>('type', { id: address.custom.type.id });
    if (type !== undefined) validateCustomFields(type, { [name]: action.value }, false);
    address.custom.fields[name] = action.value;
    return [
      {
        type: existed ? 'BusinessUnitAddressCustomFieldChanged' : 'BusinessUnitAddressCustomFieldAdded',
        name,
        value: action.value,
        addressId: address.id,
      },
    ];
  },
} satisfies ActionHandlers<BusinessUnit>;

async function changedAddress(unit: BusinessUnit, current: BusinessUnitAddress, input: unknown, load: Load): Promise<BusinessUnitAddress> {
  // The address is replaced as given; its id stays, so lists and defaults keep pointing at it.
  const replacement: BusinessUnitAddress = { id: current.id, ...(await addressFromInput(input, 'address', load)) };
  unit.addresses = unit.addresses.map((address) => (address.id === current.id ? replacement : address));
  assertUniqueAddressKeys(unit.addresses);
  return replacement;
}

/** §4.3: the 25 members of BusinessUnitUpdateAction. */
export const BUSINESS_UNIT_ACTIONS = [
  'addAddress',
  'addAssociate',
  'addBillingAddressId',
  'addShippingAddressId',
  'addStore',
  'changeAddress',
  'changeAssociate',
  'changeName',
  'changeParentUnit',
  'changeStatus',
  'removeAddress',
  'removeAssociate',
  'removeBillingAddressId',
  'removeShippingAddressId',
  'removeStore',
  'setAddressCustomField',
  'setAddressCustomType',
  'setAssociates',
  'setContactEmail',
  'setCustomField',
  'setCustomType',
  'setDefaultBillingAddress',
  'setDefaultShippingAddress',
  'setStores',
  'setStoreMode',
] as const;

export type BusinessUnitActionName = (typeof BUSINESS_UNIT_ACTIONS)[number];

/** The actions open to API clients with `manage_business_units`. */
export const businessUnitActions: Record<BusinessUnitActionName, Handler> = {
  changeName(unit, action) {
    const name = requiredName(action.name);
    if (name === unit.name) return [];
    unit.name = name;
    return [{ type: 'BusinessUnitNameChanged', name }];
  },

  setContactEmail(unit, action) {
    const contactEmail = optionalEmail(action.contactEmail);
    if (contactEmail === unit.contactEmail) return [];
    if (contactEmail === undefined) delete unit.contactEmail;
    else unit.contactEmail = contactEmail;
    return [contactEmail === undefined ? { type: 'BusinessUnitContactEmailSet' } : { type: 'BusinessUnitContactEmailSet', contactEmail }];
  },

  changeStatus(unit, action) {
    const status = required(action, 'status');
    if (!isOneOf(BUSINESS_UNIT_STATUSES, status)) {
      throw invalidInput(`'status' must be one of ${BUSINESS_UNIT_STATUSES.join(', ')}.`, { field: 'status', invalidValue: status });
    }
    if (status === unit.status) return [];
    unit.status = status;
    // §6.1 names the field `status`; the reference's BusinessUnitStatusChanged names it `active`.
    return [{ type: 'BusinessUnitStatusChanged', status, active: status }];
  },

  /**
   * Moves a Division below another unit (§4.3). Its own `ancestors` and `topLevelUnit` change
   * here; the service carries the change down to the descendants in the same transaction.
   */
  async changeParentUnit(unit, action, { reader }) {
    if (unit.unitType === 'Company') throw invalidOperation(`'${unit.key}' is a Company; a Company has no parent unit (§2.2).`);
    const parent = await loadParent(reader.get, required(action, 'parentUnit'), 'parentUnit');
    assertNotBelow(unit, parent);
    const oldParentUnit = unit.parentUnit;
    if (oldParentUnit?.key === parent.key) return [];
    setAncestry(unit, childAncestry(parent));
    return [{ type: 'BusinessUnitParentChanged', oldParentUnit, newParentUnit: unit.parentUnit }];
  },

  async addAddress(unit, action, { reader }) {
    const address: BusinessUnitAddress = { id: newAddressId(unit.addresses), ...(await addressFromInput(required(action, 'address'), 'address', reader.get)) };
    unit.addresses.push(address);
    assertUniqueAddressKeys(unit.addresses);
    return [{ type: 'BusinessUnitAddressAdded', address }];
  },

  async changeAddress(unit, action, { reader }) {
    const current = findAddress(unit, action);
    const address = await changedAddress(unit, current, required(action, 'address'), reader.get);
    return [{ type: 'BusinessUnitAddressChanged', address, addressRoles: addressRoles(unit, current.id) }];
  },

  removeAddress(unit, action) {
    const address = findAddress(unit, action);
    const roles = addressRoles(unit, address.id);
    unit.addresses = unit.addresses.filter((candidate) => candidate.id !== address.id);
    unit.shippingAddressIds = unit.shippingAddressIds.filter((id) => id !== address.id);
    unit.billingAddressIds = unit.billingAddressIds.filter((id) => id !== address.id);
    if (unit.defaultShippingAddressId === address.id) delete unit.defaultShippingAddressId;
    if (unit.defaultBillingAddressId === address.id) delete unit.defaultBillingAddressId;
    return [{ type: 'BusinessUnitAddressRemoved', address, addressRoles: roles }];
  },

  addShippingAddressId: addToList('shippingAddressIds', 'BusinessUnitShippingAddressAdded'),
  removeShippingAddressId: removeFromList('shippingAddressIds', 'defaultShippingAddressId', 'BusinessUnitShippingAddressRemoved'),
  addBillingAddressId: addToList('billingAddressIds', 'BusinessUnitBillingAddressAdded'),
  removeBillingAddressId: removeFromList('billingAddressIds', 'defaultBillingAddressId', 'BusinessUnitBillingAddressRemoved'),
  setDefaultShippingAddress: setDefault('shippingAddressIds', 'defaultShippingAddressId', 'BusinessUnitDefaultShippingAddressSet'),
  setDefaultBillingAddress: setDefault('billingAddressIds', 'defaultBillingAddressId', 'BusinessUnitDefaultBillingAddressSet'),

  async addAssociate(unit, action, { reader }) {
    const associate = await associateFromDraft(required(action, 'associate'), 'associate', reader.get);
    if (associateOf(unit, associate.customer.id) !== undefined) {
      throw invalidOperation(`The customer '${associate.customer.id}' is already an associate of '${unit.key}'; use changeAssociate.`);
    }
    if (unit.associates.length >= MAX_ASSOCIATES) {
      throw invalidOperation(`'${unit.key}' already has ${MAX_ASSOCIATES} associates, the most a business unit may have.`);
    }
    unit.associates.push(associate);
    return [{ type: 'BusinessUnitAssociateAdded', associate }];
  },

  async changeAssociate(unit, action, { reader }) {
    const associate = await associateFromDraft(required(action, 'associate'), 'associate', reader.get);
    if (associateOf(unit, associate.customer.id) === undefined) {
      throw invalidOperation(`The customer '${associate.customer.id}' is not an associate of '${unit.key}'; use addAssociate.`);
    }
    unit.associates = unit.associates.map((known) => (known.customer.id === associate.customer.id ? associate : known));
    return [{ type: 'BusinessUnitAssociateChanged', associate }];
  },

  async removeAssociate(unit, action, { reader }) {
    const customer = await customerReference(required(action, 'customer'), 'customer', reader.get);
    const associate = associateOf(unit, customer.id);
    if (associate === undefined) throw invalidOperation(`The customer '${customer.id}' is not an associate of '${unit.key}'.`);
    unit.associates = unit.associates.filter((known) => known.customer.id !== customer.id);
    // An associate stored before role assignments existed gets them derived from its roles.
    return [{ type: 'BusinessUnitAssociateRemoved', associate: withRoleAssignments(associate) }];
  },

  async setAssociates(unit, action, { reader }) {
    // §4.3: `associates` defaults to the empty list.
    const associates = await associatesFromDrafts(action.associates ?? [], 'associates', reader.get);
    if (isDeepStrictEqual(associates, unit.associates)) return [];
    unit.associates = associates;
    return [{ type: 'BusinessUnitAssociatesSet', associates: unit.associates }];
  },

  async addStore(unit, action, { reader }) {
    requireExplicitStores(unit);
    const store = await keyReference(reader.get, 'store', required(action, 'store'), 'store');
    if (unit.stores.some((known) => known.key === store.key)) return [];
    if (unit.stores.length >= MAX_STORES) {
      throw invalidOperation(`'${unit.key}' already lists ${MAX_STORES} stores, the most a business unit may list.`);
    }
    unit.stores.push(store);
    return [{ type: 'BusinessUnitStoreAdded', store }];
  },

  async removeStore(unit, action, { reader }) {
    requireExplicitStores(unit);
    const store = await keyReference(reader.get, 'store', required(action, 'store'), 'store');
    if (!unit.stores.some((known) => known.key === store.key)) return [];
    unit.stores = unit.stores.filter((known) => known.key !== store.key);
    return [{ type: 'BusinessUnitStoreRemoved', store }];
  },

  async setStores(unit, action, { reader }) {
    requireExplicitStores(unit);
    const stores = await storeReferences(required(action, 'stores'), 'stores', reader.get);
    if (isDeepStrictEqual(stores, unit.stores)) return [];
    unit.stores = stores;
    return [{ type: 'BusinessUnitStoresSet', stores: unit.stores }];
  },

  /** `storeMode` absent keeps the current mode (§4.3 types both inputs as optional). */
  async setStoreMode(unit, action, { reader }) {
    const storeMode = action.storeMode === undefined || action.storeMode === null ? unit.storeMode : storeModeOf(action.storeMode);
    if (storeMode === 'FromParent' && unit.unitType === 'Company') {
      throw invalidOperation(`'${unit.key}' is a Company; it has no parent to take stores from.`);
    }
    const stores = await storeReferences(action.stores, 'stores', reader.get);
    if (storeMode === 'FromParent' && stores.length > 0) {
      throw invalidInput("'stores' must be empty when 'storeMode' is FromParent.", { field: 'stores' });
    }
    if (storeMode === unit.storeMode && isDeepStrictEqual(stores, unit.stores)) return [];
    const message: MessagePayload = {
      type: 'BusinessUnitStoreModeChanged',
      storeMode,
      oldStoreMode: unit.storeMode,
      stores,
      oldStores: unit.stores,
    };
    unit.storeMode = storeMode;
    unit.stores = stores;
    return [message];
  },

  setAddressCustomType: addressCustomFieldActions.setAddressCustomType,
  setAddressCustomField: addressCustomFieldActions.setAddressCustomField,
  setCustomType: shared(businessUnitCustomFields, 'setCustomType'),
  setCustomField: shared(businessUnitCustomFields, 'setCustomField'),
};

/** §4.3: the 18 members of MyBusinessUnitUpdateAction. */
export const MY_BUSINESS_UNIT_ACTIONS: readonly BusinessUnitActionName[] = [
  'addAddress',
  'addBillingAddressId',
  'addShippingAddressId',
  'changeAddress',
  'changeAssociate',
  'changeName',
  'changeParentUnit',
  'removeAddress',
  'removeAssociate',
  'removeBillingAddressId',
  'removeShippingAddressId',
  'setAddressCustomField',
  'setAddressCustomType',
  'setContactEmail',
  'setCustomField',
  'setCustomType',
  'setDefaultBillingAddress',
  'setDefaultShippingAddress',
];

/**
 * The actions an associate may use through `updateMyBusinessUnit` (with the permissions of
 * my-permissions.ts). Moving the unit needs `AddChildUnits` in the new parent too.
 */
export const myBusinessUnitActions: ActionHandlers<BusinessUnit> = {
  ...Object.fromEntries(MY_BUSINESS_UNIT_ACTIONS.map((name) => [name, businessUnitActions[name]])),
  async changeParentUnit(unit, action, scope) {
    const customerId = scope.ctx.auth?.customerId;
    if (customerId === undefined) throw new Error('updateMyBusinessUnit without a customer');
    const parent = await loadParent(scope.reader.get, required(action, 'parentUnit'), 'parentUnit');
    await requireAddChildUnits({ documents: loadLookup(scope.reader.get) }, scope.ctx.projectKey, parent, customerId);
    return businessUnitActions.changeParentUnit(unit, action, scope);
  },
  async changeAssociate(unit, action, scope) {
    const messages = (await businessUnitActions.changeAssociate(unit, action, scope)) ?? [];
    // BusinessUnitAssociateChanged carries the associate as it now is.
    const changed = messages[0]?.associate as Associate | undefined;
    if (changed !== undefined) await assertBuyerAssignable(changed, scope.reader.get);
    return messages;
  },
};
