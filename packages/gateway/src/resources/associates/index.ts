/**
 * Associate permissions in business units (the reference's associate roles): what the
 * as-associate endpoints and the /me business unit operations check.
 *
 *   await requirePermission({ documents }, { projectKey, associateId, businessUnitKey },
 *     { my: 'ViewMyQuotes', others: 'ViewOthersQuotes' }, quote.customer?.id);
 *
 * Inside a transaction pass `{ documents: readerLookup(reader) }` (business-units/associates.ts).
 */
export { PERMISSIONS, isPermission, type OwnedPermission, type Permission } from './permissions.js';
export { BUILT_IN_ROLE_KEYS, BUILT_IN_ROLE_PERMISSIONS, builtInRole, isReservedRoleKey, type BuiltInRoleKey } from './built-in-roles.js';
export { businessUnitOfPath, effectiveAssignments, effectivePermissions, inheritedAssignments, type EffectiveAssignment } from './effective-permissions.js';
export {
  associateMissingPermissionError,
  neededPermission,
  requirePermission,
  requirePermissionIn,
  requireViewPermission,
  type AssociateScope,
  type MissingPermissionDetails,
  type PermissionDeps,
  type RequiredPermission,
  type RequirePermissionOptions,
} from './require-permission.js';
export { inheritedAssociatesOf, type InheritedAssociate, type InheritedAssociateRoleAssignment } from './inherited-associates.js';
export { readerLookup, type BusinessUnitLookup } from '../business-units/associates.js';
