import { invalidInput, invalidOperation, requiredField, type MessagePayload, type Reference } from '@herald/model';
import { optionalCustomerGroupReference } from '../customer-groups/reference.js';
import { CUSTOMER_GROUP_TYPE_ID, type CustomerGroup } from '../customer-groups/customer-group.js';
import { identifierLocator, loadReferenced, type Load } from '../shared/references.js';
import type { ActionHandlers } from '../shared/update-actions.js';
import type { Customer, CustomerGroupAssignment } from './customer.js';

/** The reference states no bound; this one only keeps documents reasonable. */
const MAX_ASSIGNMENTS = 500;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A CustomerGroupAssignmentDraft: `customerGroup` required, an existing group (400 ReferencedResourceNotFound). */
async function assignmentFromDraft(load: Load, value: unknown, field: string): Promise<CustomerGroupAssignment> {
  if (value === undefined || value === null) throw requiredField(field);
  if (!isObject(value)) throw invalidInput(`'${field}' must be a CustomerGroupAssignmentDraft.`, { field, invalidValue: value });
  const customerGroup = await optionalCustomerGroupReference(load, value.customerGroup, `${field}.customerGroup`);
  if (customerGroup === undefined) throw requiredField(`${field}.customerGroup`);
  return { customerGroup };
}

const isAssigned = (assignments: readonly CustomerGroupAssignment[], group: Reference<'customer-group'>): boolean =>
  assignments.some((assignment) => assignment.customerGroup.id === group.id);

/**
 * CustomerDraft.customerGroupAssignments and CustomerSetCustomerGroupAssignmentsAction: a list of
 * CustomerGroupAssignmentDrafts, each group existing and listed once (a group twice is 400
 * InvalidInput naming the item: one customer is in a group or is not). Absent or null: none.
 */
export async function groupAssignmentList(load: Load, value: unknown, field = 'customerGroupAssignments'): Promise<CustomerGroupAssignment[]> {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_ASSIGNMENTS) {
    throw invalidInput(`'${field}' must be an array of at most ${MAX_ASSIGNMENTS} CustomerGroupAssignmentDrafts.`, { field });
  }
  const assignments: CustomerGroupAssignment[] = [];
  for (const [index, item] of value.entries()) {
    const assignment = await assignmentFromDraft(load, item, `${field}[${index}]`);
    if (isAssigned(assignments, assignment.customerGroup)) {
      throw invalidInput(`The customer group '${assignment.customerGroup.id}' is listed more than once in '${field}'.`, {
        field: `${field}[${index}].customerGroup`,
        invalidValue: item,
      });
    }
    assignments.push(assignment);
  }
  return assignments;
}

/**
 * The group a removal names: by id it needs not exist any more (a deleted group's assignment can
 * be removed); by key it must, to know its id (400 ReferencedResourceNotFound).
 */
async function removedGroupId(load: Load, value: unknown): Promise<string> {
  if (value === undefined || value === null) throw requiredField('customerGroup');
  const locator = identifierLocator(value, 'customerGroup', CUSTOMER_GROUP_TYPE_ID);
  if ('id' in locator) return locator.id;
  return (await loadReferenced<CustomerGroup>(load, CUSTOMER_GROUP_TYPE_ID, locator)).id;
}

const sameGroups = (a: readonly CustomerGroupAssignment[], b: readonly CustomerGroupAssignment[]): boolean =>
  a.length === b.length && a.every((assignment, index) => assignment.customerGroup.id === b[index]?.customerGroup.id);

/**
 * The reference's CustomerAdd/RemoveCustomerGroupAssignmentAction and
 * CustomerSetCustomerGroupAssignmentsAction, with their messages (types/message/
 * CustomerGroupAssignment{Added,Removed,sSet}). The reference names no error for adding a group
 * already assigned or removing one that is not: Herald refuses both with 400 InvalidOperation
 * rather than answering a new version that changed nothing. Setting the same list again changes
 * nothing and produces no message.
 */
export const groupAssignmentActions: ActionHandlers<Customer> = {
  async addCustomerGroupAssignment(customer, action, { reader }): Promise<MessagePayload[]> {
    const customerGroupAssignment = await assignmentFromDraft(reader.get, action.customerGroupAssignment, 'customerGroupAssignment');
    if (isAssigned(customer.customerGroupAssignments, customerGroupAssignment.customerGroup)) {
      throw invalidOperation(`The customer is assigned to the customer group '${customerGroupAssignment.customerGroup.id}' already.`);
    }
    customer.customerGroupAssignments = [...customer.customerGroupAssignments, customerGroupAssignment];
    return [{ type: 'CustomerGroupAssignmentAdded', customerGroupAssignment }];
  },
  async removeCustomerGroupAssignment(customer, action, { reader }): Promise<MessagePayload[]> {
    const groupId = await removedGroupId(reader.get, action.customerGroup);
    const removed = customer.customerGroupAssignments.find((assignment) => assignment.customerGroup.id === groupId);
    if (removed === undefined) throw invalidOperation(`The customer is not assigned to the customer group '${groupId}'.`);
    customer.customerGroupAssignments = customer.customerGroupAssignments.filter((assignment) => assignment !== removed);
    return [{ type: 'CustomerGroupAssignmentRemoved', customerGroupAssignment: removed }];
  },
  async setCustomerGroupAssignments(customer, action, { reader }): Promise<MessagePayload[]> {
    if (action.customerGroupAssignments === undefined || action.customerGroupAssignments === null) throw requiredField('customerGroupAssignments');
    const customerGroupAssignments = await groupAssignmentList(reader.get, action.customerGroupAssignments);
    const oldCustomerGroupAssignments = customer.customerGroupAssignments;
    if (sameGroups(customerGroupAssignments, oldCustomerGroupAssignments)) return [];
    customer.customerGroupAssignments = customerGroupAssignments;
    return [{ type: 'CustomerGroupAssignmentsSet', customerGroupAssignments, oldCustomerGroupAssignments }];
  },
};
