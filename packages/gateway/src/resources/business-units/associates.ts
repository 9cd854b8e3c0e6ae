import { ApiError, invalidInput, type BaseResource } from '@herald/model';
import type { Locator, TransactionReader } from '@herald/store';
import { identifierLocator, loadReferenced, referencedResourceNotFound, type Load } from '../shared/references.js';
import { MAX_ROLE_ASSIGNMENTS, roleAssignment, roleAssignmentsFromDraft } from './modes.js';
import { ASSOCIATE_ROLES, BUSINESS_UNIT_TYPE_ID, isOneOf, type Associate, type AssociateRole, type BusinessUnit } from './business-unit.js';

/** Associates of one unit, however they got there (draft, setAssociates, addAssociate). */
export const MAX_ASSOCIATES = 500;

function roles(value: unknown, field: string): AssociateRole[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw invalidInput(`'${field}' must list at least one role (${ASSOCIATE_ROLES.join(', ')}).`, { field });
  }
  const result: AssociateRole[] = [];
  for (const role of value) {
    if (!isOneOf(ASSOCIATE_ROLES, role)) {
      throw invalidInput(`'${field}' contains an unknown role; roles are ${ASSOCIATE_ROLES.join(', ')}.`, { field, invalidValue: role });
    }
    if (!result.includes(role)) result.push(role);
  }
  return result;
}

/** The customer named by a ResourceIdentifier: it must exist (associates are real customers). */
export async function customerReference(value: unknown, field: string, load: Load): Promise<Associate['customer']> {
  const customer = await loadReferenced(load, 'customer', identifierLocator(value, field, 'customer'));
  return { typeId: 'customer', id: customer.id };
}

const given = (value: unknown): boolean => value !== undefined && value !== null;

/**
 * §2.2 AssociateDraft `{roles, customer}`: an existing customer with at least one role. The
 * reference's form `{associateRoleAssignments, customer}` is accepted too (and both together);
 * the associate keeps its roles in both forms.
 */
export async function associateFromDraft(value: unknown, field: string, load: Load): Promise<Associate> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidInput(`'${field}' must be an AssociateDraft {roles, customer}.`, { field });
  }
  const draft = value as { roles?: unknown; associateRoleAssignments?: unknown; customer?: unknown };
  const assignments = given(draft.associateRoleAssignments)
    ? await roleAssignmentsFromDraft(draft.associateRoleAssignments, `${field}.associateRoleAssignments`, load)
    : [];
  // An empty `roles` beside assignments (the reference's deprecated field, left empty) names none.
  const rolesGiven = Array.isArray(draft.roles) ? draft.roles.length > 0 : given(draft.roles);
  const named = rolesGiven || assignments.length === 0 ? roles(draft.roles, `${field}.roles`) : [];
  for (const role of named) {
    if (assignments.length >= MAX_ROLE_ASSIGNMENTS) throw invalidInput(`'${field}' may have at most ${MAX_ROLE_ASSIGNMENTS} associate roles.`, { field });
    if (!assignments.some((assignment) => assignment.associateRole.key === role)) assignments.push(roleAssignment(role));
  }
  return {
    // §2.2 `roles` names the built-in roles among the assignments (stored roles have no §2.2 name).
    roles: assignments.flatMap((assignment) => ASSOCIATE_ROLES.filter((role) => role === assignment.associateRole.key)),
    associateRoleAssignments: assignments,
    customer: await customerReference(draft.customer, `${field}.customer`, load),
  };
}

/** A list of AssociateDrafts; a customer may appear once. */
export async function associatesFromDrafts(value: unknown, field: string, load: Load): Promise<Associate[]> {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_ASSOCIATES) {
    throw invalidInput(`'${field}' must be an array of at most ${MAX_ASSOCIATES} associates.`, { field });
  }
  const associates: Associate[] = [];
  for (const [index, draft] of value.entries()) {
    const associate = await associateFromDraft(draft, `${field}[${index}]`, load);
    if (associates.some((known) => known.customer.id === associate.customer.id)) {
      throw invalidInput(`The customer '${associate.customer.id}' is listed twice in '${field}'.`, { field });
    }
    associates.push(associate);
  }
  return associates;
}

export function associateOf(unit: Pick<BusinessUnit, 'associates'>, customerId: string): Associate | undefined {
  return unit.associates.find((associate) => associate.customer.id === customerId);
}

/**
 * 403 `AssociateMissingPermission`: the acting customer is not an associate of the unit, or lacks
 * the role an operation needs (only Admins change a unit through the My operations).
 */
export function associateMissingPermission(unit: Pick<BusinessUnit, 'key'>, customerId: string, role?: AssociateRole): ApiError {
  const message =
    role === undefined
      ? `The customer '${customerId}' is not an associate of the business unit '${unit.key}'.`
      : `The customer '${customerId}' is not an associate with the role ${role} in the business unit '${unit.key}'.`;
  return new ApiError(403, {
    code: 'AssociateMissingPermission',
    message,
    associate: { typeId: 'customer', id: customerId },
    businessUnit: { typeId: BUSINESS_UNIT_TYPE_ID, key: unit.key },
    ...(role === undefined ? {} : { permissions: [role] }),
  });
}

/** Throws AssociateMissingPermission unless `customerId` is an associate (with `role`, if given). */
export function assertAssociate(unit: BusinessUnit, customerId: string, role?: AssociateRole): Associate {
  const associate = associateOf(unit, customerId);
  if (associate === undefined || (role !== undefined && !associate.roles.includes(role))) {
    throw associateMissingPermission(unit, customerId, role);
  }
  return associate;
}

/** Reads business units: the DocumentStore, or a transaction's reader through `readerLookup`. */
export interface BusinessUnitLookup {
  get<T extends BaseResource>(projectKey: string, typeId: string, locator: Locator): Promise<T | undefined>;
}

/** Adapts a TransactionReader (inside an update action) to `requireAssociate`. */
export function readerLookup(reader: Pick<TransactionReader, 'get'>): BusinessUnitLookup {
  return { get: (_projectKey, typeId, locator) => reader.get(typeId, locator) };
}

export interface RequireAssociateOptions {
  /** A role the associate must have (default: any role). */
  role?: AssociateRole;
}

/**
 * For carts and quote requests that reference a business unit (§1.4: they "validate the
 * customer's role within it"): the unit must exist (400 `ReferencedResourceNotFound`) and the
 * acting customer must be one of its associates (403 `AssociateMissingPermission`).
 * `businessUnit` is `{id}` or `{key}`; a KeyReference `{typeId, key}` works as it is.
 */
export async function requireAssociate(
  documents: BusinessUnitLookup,
  projectKey: string,
  businessUnit: Locator,
  customerId: string,
  options: RequireAssociateOptions = {},
): Promise<BusinessUnit> {
  const locator: Locator = 'id' in businessUnit ? { id: businessUnit.id } : { key: businessUnit.key };
  const unit = await documents.get<BusinessUnit>(projectKey, BUSINESS_UNIT_TYPE_ID, locator);
  if (unit === undefined) throw referencedResourceNotFound(BUSINESS_UNIT_TYPE_ID, locator);
  assertAssociate(unit, customerId, options.role);
  return unit;
}
