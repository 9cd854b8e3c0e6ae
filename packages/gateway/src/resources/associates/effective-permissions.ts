import { resourceNotFound } from '@herald/model';
import type { Locator } from '@herald/store';
import { ASSOCIATE_ROLE_TYPE_ID, type AssociateRole } from '../associate-roles/associate-role.js';
import type { BusinessUnitLookup } from '../business-units/associates.js';
import { BUSINESS_UNIT_TYPE_ID, type BusinessUnit } from '../business-units/business-unit.js';
import { withRoleAssignments, type AssociateRoleAssignment } from '../business-units/modes.js';
import { inheritanceSources } from './inherited-associates.js';
import { notFoundMessage } from '../shared/versioned-routes.js';
import { BUILT_IN_ROLE_PERMISSIONS, builtInRole } from './built-in-roles.js';
import type { Permission } from './permissions.js';

/** An assignment as it counts in a unit: the role's key and the unit it was made in. */
export interface EffectiveAssignment {
  associateRole: AssociateRoleAssignment['associateRole'];
  /** The unit whose `associates` hold the assignment: the unit itself or an ancestor. */
  from: string;
}

function assignmentsIn(unit: BusinessUnit, customerId: string): AssociateRoleAssignment[] {
  const associate = unit.associates.find((known) => known.customer.id === customerId);
  return associate === undefined ? [] : (withRoleAssignments(associate).associateRoleAssignments ?? []);
}

/**
 * The reference's BusinessUnitAssociateMode: a unit in `ExplicitAndFromParent` mode also counts
 * the assignments of its parent's associates whose `inheritance` is `Enabled` (and, when the parent
 * inherits too, those of the parent's parent, up the tree). `Explicit` stops the walk.
 */
export async function inheritedAssignments(
  lookup: BusinessUnitLookup,
  projectKey: string,
  unit: BusinessUnit,
  customerId: string,
): Promise<EffectiveAssignment[]> {
  const found: EffectiveAssignment[] = [];
  for (const source of await inheritanceSources(lookup, projectKey, unit)) {
    for (const assignment of assignmentsIn(source, customerId)) {
      if (assignment.inheritance === 'Enabled') found.push({ associateRole: assignment.associateRole, from: source.key });
    }
  }
  return found;
}

/** The unit's own assignments of `customerId`, then those inherited up the tree. */
export async function effectiveAssignments(
  lookup: BusinessUnitLookup,
  projectKey: string,
  unit: BusinessUnit,
  customerId: string,
): Promise<EffectiveAssignment[]> {
  const explicit = assignmentsIn(unit, customerId).map((assignment) => ({ associateRole: assignment.associateRole, from: unit.key }));
  return [...explicit, ...(await inheritedAssignments(lookup, projectKey, unit, customerId))];
}

/** A role's permissions: a built-in one's (built-in-roles.ts) or the stored AssociateRole's; none when it was deleted. */
async function rolePermissions(lookup: BusinessUnitLookup, projectKey: string, key: string): Promise<readonly Permission[]> {
  const builtIn = builtInRole(key);
  if (builtIn !== undefined) return BUILT_IN_ROLE_PERMISSIONS[builtIn];
  const role = await lookup.get<AssociateRole>(projectKey, ASSOCIATE_ROLE_TYPE_ID, { key });
  return role?.permissions ?? [];
}

/** The union of the permissions of every effective assignment of `customerId` in `unit`. */
export async function effectivePermissions(lookup: BusinessUnitLookup, projectKey: string, unit: BusinessUnit, customerId: string): Promise<Set<Permission>> {
  const permissions = new Set<Permission>();
  const keys = new Set((await effectiveAssignments(lookup, projectKey, unit, customerId)).map((assignment) => assignment.associateRole.key));
  for (const key of keys) {
    for (const permission of await rolePermissions(lookup, projectKey, key)) permissions.add(permission);
  }
  return permissions;
}

/** The unit named by the path (`in-business-unit/key=…`): a missing one is a 404 like any path resource. */
export async function businessUnitOfPath(lookup: BusinessUnitLookup, projectKey: string, locator: Locator): Promise<BusinessUnit> {
  const unit = await lookup.get<BusinessUnit>(projectKey, BUSINESS_UNIT_TYPE_ID, locator);
  if (unit === undefined) throw resourceNotFound(notFoundMessage(BUSINESS_UNIT_TYPE_ID, locator));
  return unit;
}
