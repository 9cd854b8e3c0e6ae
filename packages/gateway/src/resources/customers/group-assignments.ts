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

/** Two lists (or two absent ones) naming the same groups in the same order. */
function sameGroups(a: readonly CustomerGroupAssignment[] | undefined, b: readonly CustomerGroupAssignment[] | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.length === b.length && a.every((assignment, index) => assignment.customerGroup.id === b[index]?.customerGroup.id);
}

function definedLists(lists: Record<string, CustomerGroupAssignment[] | undefined>): Record<string, CustomerGroupAssignment[]> {
  return Object.fromEntries(Object.entries(lists).filter((entry): entry is [string, CustomerGroupAssignment[]] => entry[1] !== undefined));
}

/** What holds group assignments: a Customer (always a list) or a BusinessUnit (optional list). */
interface GroupAssignee {
  customerGroupAssignments?: CustomerGroupAssignment[];
}

/** How one resource names its assignment actions' messages and itself in errors. */
interface AssigneeVocabulary {
  /** In error messages: "The customer is assigned …". */
  noun: string;
  /** Prefix of the message types: '' (Customer…) or 'BusinessUnit'. */
  messagePrefix: '' | 'BusinessUnit';
  /**
   * CustomerSetCustomerGroupAssignmentsAction requires the list; the BusinessUnit action's is
   * optional, and leaving it out removes the field (BusinessUnit.raml: assignments are considered
   * in price selection "if provided (non-null)").
   */
  listRequired: boolean;
}

/**
 * The reference's Add/RemoveCustomerGroupAssignment and SetCustomerGroupAssignments actions of a
 * Customer or a BusinessUnit, with their messages (types/message/CustomerGroupAssignment{Added,
 * Removed,sSet}, BusinessUnitCustomerGroupAssignment{Added,Removed,sSet}). The reference names no
 * error for adding a group already assigned or removing one that is not: Herald refuses both with
 * 400 InvalidOperation rather than answering a new version that changed nothing. Setting the same
 * list again changes nothing and produces no message.
 */
export function groupAssignmentActionsFor<T extends GroupAssignee>({ noun, messagePrefix, listRequired }: AssigneeVocabulary): ActionHandlers<T> {
  const type = (name: string): string => `${messagePrefix}Customer${name}`;
  return {
    async addCustomerGroupAssignment(assignee, action, { reader }): Promise<MessagePayload[]> {
      const customerGroupAssignment = await assignmentFromDraft(reader.get, action.customerGroupAssignment, 'customerGroupAssignment');
      const current = assignee.customerGroupAssignments ?? [];
      if (isAssigned(current, customerGroupAssignment.customerGroup)) {
        throw invalidOperation(`The ${noun} is assigned to the customer group '${customerGroupAssignment.customerGroup.id}' already.`);
      }
      assignee.customerGroupAssignments = [...current, customerGroupAssignment];
      return [{ type: type('GroupAssignmentAdded'), customerGroupAssignment }];
    },
    async removeCustomerGroupAssignment(assignee, action, { reader }): Promise<MessagePayload[]> {
      const groupId = await removedGroupId(reader.get, action.customerGroup);
      const current = assignee.customerGroupAssignments ?? [];
      const removed = current.find((assignment) => assignment.customerGroup.id === groupId);
      if (removed === undefined) throw invalidOperation(`The ${noun} is not assigned to the customer group '${groupId}'.`);
      assignee.customerGroupAssignments = current.filter((assignment) => assignment !== removed);
      return [{ type: type('GroupAssignmentRemoved'), customerGroupAssignment: removed }];
    },
    async setCustomerGroupAssignments(assignee, action, { reader }): Promise<MessagePayload[]> {
      const listed = action.customerGroupAssignments !== undefined && action.customerGroupAssignments !== null;
      if (!listed && listRequired) throw requiredField('customerGroupAssignments');
      const customerGroupAssignments = listed ? await groupAssignmentList(reader.get, action.customerGroupAssignments) : undefined;
      const oldCustomerGroupAssignments = assignee.customerGroupAssignments;
      if (sameGroups(customerGroupAssignments, oldCustomerGroupAssignments)) return [];
      if (customerGroupAssignments === undefined) delete assignee.customerGroupAssignments;
      else assignee.customerGroupAssignments = customerGroupAssignments;
      // Either list may be absent on a BusinessUnit, and so in its message (both fields optional).
      return [{ type: type('GroupAssignmentsSet'), ...definedLists({ customerGroupAssignments, oldCustomerGroupAssignments }) }];
    },
  };
}

export const groupAssignmentActions = groupAssignmentActionsFor<Customer>({ noun: 'customer', messagePrefix: '', listRequired: true });
