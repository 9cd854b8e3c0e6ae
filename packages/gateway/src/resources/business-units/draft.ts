import { invalidInput, requiredField, type KeyReference } from '@herald/model';
import type { ServerFields } from '@herald/store';
import { keyReference, type Load } from '../shared/references.js';
import type { RequestContext } from '../shared/context.js';
import { customFromDraft } from '../shared/custom-fields.js';
import { asDraft, validKey, type Draft } from '../shared/validation.js';
import { addressFromInput, addressList, newAddressId } from '../shared/owned-addresses.js';
import { groupAssignmentList } from '../customers/group-assignments.js';
import { assertUniqueAddressKeys } from './address.js';
import { associatesFromDrafts, customerReference } from './associates.js';
import {
  BUSINESS_UNIT_STATUSES,
  BUSINESS_UNIT_TYPE_ID,
  BUSINESS_UNIT_TYPES,
  STORE_MODES,
  isOneOf,
  type Associate,
  type AssociateRole,
  type BusinessUnit,
  type BusinessUnitAddress,
  type BusinessUnitStatus,
  type StoreMode,
} from './business-unit.js';
import { childAncestry, companyAncestry, loadParent, requireDivisionParent, type Ancestry } from './hierarchy.js';
import { inheritableMode, withRoleAssignments } from './modes.js';
import { loadLookup, requireAddChildUnits } from './my-permissions.js';

export type BusinessUnitFields = Omit<BusinessUnit, ServerFields>;

/**
 * Who creates the unit. API clients send a BusinessUnitDraft; a customer (the My operations)
 * sends a MyBusinessUnitDraft (§2.2: no `stores`, no `associates`) and becomes the unit's Admin.
 */
export type DraftOrigin = { kind: 'client' } | { kind: 'customer'; customerId: string; creatorRole?: AssociateRole };

const EMAIL = /^[^\s@]{1,128}@[^\s@]{1,127}$/;
/** Stores one unit lists, however they got there (draft, setStores, addStore). */
export const MAX_STORES = 500;

export function requiredName(value: unknown, field = 'name'): string {
  if (value === undefined || value === null) throw requiredField(field);
  if (typeof value !== 'string' || value.trim() === '' || value.length > 256) {
    throw invalidInput(`'${field}' must be a non-empty string of at most 256 characters.`, { field });
  }
  return value;
}

export function optionalEmail(value: unknown, field = 'contactEmail'): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !EMAIL.test(value)) throw invalidInput(`'${field}' must be an e-mail address.`, { field, invalidValue: value });
  return value;
}

export function storeModeOf(value: unknown, field = 'storeMode'): StoreMode {
  if (!isOneOf(STORE_MODES, value)) {
    throw invalidInput(`'${field}' must be one of ${STORE_MODES.join(', ')}.`, { field, invalidValue: value });
  }
  return value;
}

/** Stores named by ResourceIdentifiers: each must exist; kept as KeyReferences, each once. */
export async function storeReferences(value: unknown, field: string, load: Load): Promise<Array<KeyReference<'store'>>> {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_STORES) {
    throw invalidInput(`'${field}' must be an array of at most ${MAX_STORES} store identifiers.`, { field });
  }
  const stores: Array<KeyReference<'store'>> = [];
  for (const [index, identifier] of value.entries()) {
    const store = await keyReference(load, 'store', identifier, `${field}[${index}]`);
    if (stores.some((known) => known.key === store.key)) {
      throw invalidInput(`The store '${store.key}' is listed twice in '${field}'.`, { field });
    }
    stores.push(store);
  }
  return stores;
}

function indexList(value: unknown, field: string, count: number): number[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidInput(`'${field}' must be an array of indices into 'addresses'.`, { field });
  return value.map((index, position) => addressIndex(index, `${field}[${position}]`, count));
}

function addressIndex(value: unknown, field: string, count: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value >= count) {
    throw invalidInput(`'${field}' must be an index into 'addresses' (0 to ${count - 1}).`, { field, invalidValue: value });
  }
  return value;
}

/**
 * §2.2: `shippingAddresses`/`billingAddresses` and the defaults are indices into `addresses`; a
 * default is also one of its kind's addresses.
 */
function addressRoles(
  draft: Draft,
  addresses: readonly BusinessUnitAddress[],
): Pick<BusinessUnitFields, 'shippingAddressIds' | 'billingAddressIds' | 'defaultShippingAddressId' | 'defaultBillingAddressId'> {
  const idAt = (index: number) => (addresses[index] as BusinessUnitAddress).id;
  const shipping = indexList(draft.shippingAddresses, 'shippingAddresses', addresses.length);
  const billing = indexList(draft.billingAddresses, 'billingAddresses', addresses.length);
  const roles: ReturnType<typeof addressRoles> = { shippingAddressIds: [], billingAddressIds: [] };
  if (draft.defaultShippingAddress !== undefined && draft.defaultShippingAddress !== null) {
    const index = addressIndex(draft.defaultShippingAddress, 'defaultShippingAddress', addresses.length);
    roles.defaultShippingAddressId = idAt(index);
    shipping.push(index);
  }
  if (draft.defaultBillingAddress !== undefined && draft.defaultBillingAddress !== null) {
    const index = addressIndex(draft.defaultBillingAddress, 'defaultBillingAddress', addresses.length);
    roles.defaultBillingAddressId = idAt(index);
    billing.push(index);
  }
  roles.shippingAddressIds = [...new Set(shipping)].map(idAt);
  roles.billingAddressIds = [...new Set(billing)].map(idAt);
  return roles;
}

async function ancestryOf(
  draft: Draft,
  key: string,
  unitType: BusinessUnit['unitType'],
  origin: DraftOrigin,
  ctx: Pick<RequestContext, 'projectKey' | 'load'>,
): Promise<Ancestry> {
  const { load } = ctx;
  if (unitType === 'Company') {
    if (draft.parentUnit !== undefined && draft.parentUnit !== null) {
      throw invalidInput("A Company has no parent unit (§2.2); omit 'parentUnit' or create a Division.", { field: 'parentUnit' });
    }
    return companyAncestry(key);
  }
  requireDivisionParent(draft.parentUnit);
  const parent = await loadParent(load, draft.parentUnit, 'parentUnit');
  // A customer creates Divisions only below units where it may add child units (reference: AddChildUnits).
  if (origin.kind === 'customer') await requireAddChildUnits({ documents: loadLookup(load) }, ctx.projectKey, parent, origin.customerId);
  return childAncestry(parent);
}

/**
 * Stores: a Company's are its own (`Explicit`); a Division takes its parent's (`FromParent`)
 * unless the draft lists stores or asks for `Explicit`.
 */
async function storesOf(draft: Draft, unitType: BusinessUnit['unitType'], load: Load): Promise<Pick<BusinessUnitFields, 'storeMode' | 'stores'>> {
  const stores = await storeReferences(draft.stores, 'stores', load);
  const listed = draft.stores !== undefined && draft.stores !== null;
  const storeMode =
    draft.storeMode === undefined || draft.storeMode === null ? (unitType === 'Company' || listed ? 'Explicit' : 'FromParent') : storeModeOf(draft.storeMode);
  if (storeMode === 'FromParent' && unitType === 'Company') {
    throw invalidInput("A Company has no parent to take stores from: its 'storeMode' is Explicit.", { field: 'storeMode' });
  }
  if (storeMode === 'FromParent' && stores.length > 0) {
    throw invalidInput("'stores' must be empty when 'storeMode' is FromParent.", { field: 'stores' });
  }
  return { storeMode, stores };
}

async function associatesOf(draft: Draft, origin: DraftOrigin, load: Load): Promise<Associate[]> {
  if (origin.kind === 'client') return associatesFromDrafts(draft.associates, 'associates', load);
  // §4.3 "a customer who creates a unit becomes its Admin associate".
  // The project's myBusinessUnitAssociateRoleOnCreation (reference: BusinessUnitConfiguration), Admin by default.
  const creator: Associate = { roles: [origin.creatorRole ?? 'Admin'], customer: await customerReference({ id: origin.customerId }, 'customer', load) };
  return [withRoleAssignments(creator)];
}

/**
 * The reference's BusinessUnitDraft `status` (default Active): API clients may set it; units
 * created through the My operations take the project's setting (§3.2), whatever the draft says.
 */
function statusOf(draft: Draft, origin: DraftOrigin, projectStatus: BusinessUnitStatus): BusinessUnitStatus {
  if (origin.kind === 'customer' || draft.status === undefined || draft.status === null) return projectStatus;
  if (!isOneOf(BUSINESS_UNIT_STATUSES, draft.status)) {
    throw invalidInput(`'status' must be one of ${BUSINESS_UNIT_STATUSES.join(', ')}.`, { field: 'status', invalidValue: draft.status });
  }
  return draft.status;
}

/**
 * MyBusinessUnitDraft has no `stores` and no `associates` (§2.2), nor the reference's
 * `customerGroupAssignments` (a customer must not choose its own price groups); sending them is a
 * mistake, not a no-op.
 */
function refuseClientOnlyFields(draft: Draft): void {
  for (const field of ['stores', 'associates', 'customerGroupAssignments'] as const) {
    if (draft[field] !== undefined && draft[field] !== null) {
      throw invalidInput(`A MyBusinessUnitDraft has no '${field}' (§2.2).`, { field });
    }
  }
}

/** Validates a BusinessUnitDraft or MyBusinessUnitDraft into the document fields. */
export async function businessUnitFromDraft(
  body: unknown,
  ctx: Pick<RequestContext, 'projectKey' | 'load'>,
  origin: DraftOrigin,
  status: BusinessUnitStatus,
): Promise<BusinessUnitFields> {
  const draft = asDraft(body, origin.kind === 'client' ? 'BusinessUnitDraft' : 'MyBusinessUnitDraft');
  if (origin.kind === 'customer') refuseClientOnlyFields(draft);
  if (draft.key === undefined || draft.key === null) throw requiredField('key');
  const key = validKey(draft.key);
  const name = requiredName(draft.name);
  if (draft.unitType === undefined || draft.unitType === null) throw requiredField('unitType');
  if (!isOneOf(BUSINESS_UNIT_TYPES, draft.unitType)) {
    throw invalidInput(`'unitType' must be one of ${BUSINESS_UNIT_TYPES.join(', ')}.`, { field: 'unitType', invalidValue: draft.unitType });
  }
  const unitType = draft.unitType;
  const ancestry = await ancestryOf(draft, key, unitType, origin, ctx);

  const addresses: BusinessUnitAddress[] = [];
  for (const [index, input] of addressList(draft.addresses, 'addresses').entries()) {
    addresses.push({ id: newAddressId(addresses), ...(await addressFromInput(input, `addresses[${index}]`, ctx.load)) });
  }
  assertUniqueAddressKeys(addresses);

  const fields: BusinessUnitFields = {
    key,
    name,
    status: statusOf(draft, origin, status),
    unitType,
    ...(await storesOf(draft, unitType, ctx.load)),
    associateMode: inheritableMode(draft.associateMode, 'associateMode', unitType),
    approvalRuleMode: inheritableMode(draft.approvalRuleMode, 'approvalRuleMode', unitType),
    addresses,
    ...addressRoles(draft, addresses),
    associates: await associatesOf(draft, origin, ctx.load),
    ...ancestry,
  };
  const contactEmail = optionalEmail(draft.contactEmail);
  if (contactEmail !== undefined) fields.contactEmail = contactEmail;
  const custom = await customFromDraft(draft.custom, BUSINESS_UNIT_TYPE_ID, ctx);
  if (custom !== undefined) fields.custom = custom;
  // BusinessUnitDraft.customerGroupAssignments: kept only when given (absent is "not provided").
  if (draft.customerGroupAssignments !== undefined && draft.customerGroupAssignments !== null) {
    fields.customerGroupAssignments = await groupAssignmentList(ctx.load, draft.customerGroupAssignments);
  }
  return fields;
}
