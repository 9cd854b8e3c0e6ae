import { groupAssignmentActionsFor } from '../customers/group-assignments.js';
import type { BusinessUnit } from './business-unit.js';

/**
 * The reference's BusinessUnitAdd/RemoveCustomerGroupAssignmentAction and
 * BusinessUnitSetCustomerGroupAssignmentsAction (types/business-unit/updates, beta), with the
 * BusinessUnitCustomerGroupAssignment{Added,Removed,sSet} messages. REST only: §4.3 fixes the
 * members of GraphQL's BusinessUnitUpdateAction, and these are not among them. Not open to the My
 * operations either (MyBusinessUnitUpdateAction lacks them): a customer must not choose the groups
 * that price its carts.
 */
export const customerGroupAssignmentActions = groupAssignmentActionsFor<BusinessUnit>({
  noun: 'business unit',
  messagePrefix: 'BusinessUnit',
  listRequired: false,
});
