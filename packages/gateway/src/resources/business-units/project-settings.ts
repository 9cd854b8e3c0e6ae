import { invalidInput } from '@herald/model';
import type { Project } from '@herald/store';
import type { ProjectActions } from '../projects/routes.js';
import { BUSINESS_UNIT_STATUSES, isOneOf, type BusinessUnitStatus } from './business-unit.js';

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

/** The project action `changeMyBusinessUnitStatusOnCreation {status}` (§3.2, §4.3). */
export const businessUnitProjectActions: ProjectActions = {
  changeMyBusinessUnitStatusOnCreation(project, action) {
    const status = action.status;
    if (!isOneOf(BUSINESS_UNIT_STATUSES, status)) {
      throw invalidInput(`'status' must be one of ${BUSINESS_UNIT_STATUSES.join(', ')}.`, { field: 'status', invalidValue: status });
    }
    // Other settings of the configuration (myBusinessUnitAssociateRoleOnCreation) stay as they are.
    const stored = typeof project.businessUnits === 'object' && project.businessUnits !== null ? project.businessUnits : {};
    project.businessUnits = { ...stored, myBusinessUnitStatusOnCreation: status };
  },
};
