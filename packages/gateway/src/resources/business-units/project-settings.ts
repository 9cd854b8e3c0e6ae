import { invalidInput } from '@herald/model';
import type { Project } from '@herald/store';
import type { ProjectActions } from '../projects/routes.js';
import { BUSINESS_UNIT_STATUSES, isOneOf, type AssociateRole, type BusinessUnitStatus } from './business-unit.js';
import { assignedRole } from './modes.js';

/** §2.2 BusinessUnitConfiguration, kept in the project document as `businessUnits`. */
export interface BusinessUnitConfiguration {
  myBusinessUnitStatusOnCreation: BusinessUnitStatus;
}

const DEFAULT_CONFIGURATION: BusinessUnitConfiguration = { myBusinessUnitStatusOnCreation: 'Active' };

export function businessUnitConfiguration(project: Project): BusinessUnitConfiguration {
  const stored = project.businessUnits as Partial<BusinessUnitConfiguration> | undefined;
  const status = stored?.myBusinessUnitStatusOnCreation;
  return { myBusinessUnitStatusOnCreation: isOneOf(BUSINESS_UNIT_STATUSES, status) ? status : DEFAULT_CONFIGURATION.myBusinessUnitStatusOnCreation };
}

/** §3.2: the status of units created through the My operations (default Active). */
export function myBusinessUnitStatusOnCreation(project: Project): BusinessUnitStatus {
  return businessUnitConfiguration(project).myBusinessUnitStatusOnCreation;
}

/**
 * The reference's `myBusinessUnitAssociateRoleOnCreation`: the role of the customer who creates a
 * unit through the My operations (Admin unless the project says otherwise).
 */
export function myBusinessUnitAssociateRoleOnCreation(project: Project): AssociateRole {
  const stored = (project.businessUnits as { myBusinessUnitAssociateRoleOnCreation?: { key?: unknown } } | undefined)?.myBusinessUnitAssociateRoleOnCreation;
  return isOneOf(['Admin', 'Buyer'] as const, stored?.key) ? stored.key : 'Admin';
}

function storedConfiguration(project: Project): Record<string, unknown> {
  return typeof project.businessUnits === 'object' && project.businessUnits !== null ? (project.businessUnits as Record<string, unknown>) : {};
}

/** The project action `changeMyBusinessUnitStatusOnCreation {status}` (§3.2, §4.3). */
export const businessUnitProjectActions: ProjectActions = {
  changeMyBusinessUnitStatusOnCreation(project, action) {
    const status = action.status;
    if (!isOneOf(BUSINESS_UNIT_STATUSES, status)) {
      throw invalidInput(`'status' must be one of ${BUSINESS_UNIT_STATUSES.join(', ')}.`, { field: 'status', invalidValue: status });
    }
    // Other settings of the configuration (myBusinessUnitAssociateRoleOnCreation) stay as they are.
    project.businessUnits = { ...storedConfiguration(project), myBusinessUnitStatusOnCreation: status };
  },
  /** The reference's `setMyBusinessUnitAssociateRoleOnCreation {associateRole}`: Admin or Buyer, by key. */
  setMyBusinessUnitAssociateRoleOnCreation(project, action) {
    const role = assignedRole(action.associateRole, 'associateRole');
    project.businessUnits = { ...storedConfiguration(project), myBusinessUnitAssociateRoleOnCreation: { typeId: 'associate-role', key: role } };
  },
};
