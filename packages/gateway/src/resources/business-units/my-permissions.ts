import { invalidOperation } from '@herald/model';
import { ASSOCIATE_ROLE_TYPE_ID, type AssociateRole } from '../associate-roles/associate-role.js';
import { builtInRole } from '../associates/built-in-roles.js';
import { requirePermissionIn, type PermissionDeps } from '../associates/require-permission.js';
import type { Permission } from '../associates/permissions.js';
import type { Load } from '../shared/references.js';
import type { UpdateAction } from '../shared/update-actions.js';
import type { BusinessUnitLookup } from './associates.js';
import type { Associate, BusinessUnit } from './business-unit.js';

/** The reference's Permission descriptions: who may manage associates, move the unit, edit the rest. */
const ASSOCIATE_ACTIONS: ReadonlySet<string> = new Set(['addAssociate', 'changeAssociate', 'removeAssociate', 'setAssociates']);

/**
 * The permission one update action needs when an associate (not an API client) applies it:
 * `UpdateAssociates` for the associate actions, `UpdateParentUnit` for `changeParentUnit` (which
 * also needs `AddChildUnits` in the new parent, checked where the parent is read), else
 * `UpdateBusinessUnitDetails`.
 */
export function permissionForAction(action: string): Permission {
  if (ASSOCIATE_ACTIONS.has(action)) return 'UpdateAssociates';
  if (action === 'changeParentUnit') return 'UpdateParentUnit';
  return 'UpdateBusinessUnitDetails';
}

/** Every permission the actions need, each checked once, in the order of the actions. */
export async function requireActionPermissions(
  deps: PermissionDeps,
  projectKey: string,
  unit: BusinessUnit,
  customerId: string,
  actions: readonly UpdateAction[],
): Promise<void> {
  const needed = [...new Set(actions.map((action) => permissionForAction(action.action)))];
  for (const permission of needed) {
    await requirePermissionIn(deps, projectKey, unit, customerId, permission, undefined, { action: 'update the business unit' });
  }
}

/** `AddChildUnits` in the unit that becomes a parent (create below it, or changeParentUnit to it). */
export async function requireAddChildUnits(deps: PermissionDeps, projectKey: string, parent: BusinessUnit, customerId: string): Promise<void> {
  await requirePermissionIn(deps, projectKey, parent, customerId, 'AddChildUnits', undefined, { action: 'add child units' });
}

/** A project's `Load` (RequestContext.load, TransactionReader.get) as the permission module's lookup. */
export function loadLookup(load: Load): BusinessUnitLookup {
  return { get: (_projectKey, typeId, locator) => load(typeId, locator) };
}

/**
 * The reference's AssociateRole.buyerAssignable: "If false, the AssociateRole can only be assigned
 * using the general endpoint" — an associate (My or as-associate operations) may not assign it
 * (400 InvalidOperation). The built-in roles are assignable by associates, as §2.2's roles were.
 */
export async function assertBuyerAssignable(associate: Associate, load: Load): Promise<void> {
  for (const assignment of associate.associateRoleAssignments ?? []) {
    if (builtInRole(assignment.associateRole.key) !== undefined) continue;
    const role = await load<AssociateRole>(ASSOCIATE_ROLE_TYPE_ID, { key: assignment.associateRole.key });
    if (role !== undefined && !role.buyerAssignable) {
      throw invalidOperation(`The associate role '${role.key}' is not buyer-assignable: only the general business unit endpoints can assign it.`);
    }
  }
}
