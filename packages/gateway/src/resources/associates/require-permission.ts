import { ApiError } from '@herald/model';
import type { BusinessUnitLookup } from '../business-units/associates.js';
import { BUSINESS_UNIT_TYPE_ID, type BusinessUnit } from '../business-units/business-unit.js';
import { businessUnitOfPath, effectivePermissions } from './effective-permissions.js';
import type { OwnedPermission, Permission } from './permissions.js';

/** Who acts where: the `{associateId}` and `{businessUnitKey}` of an as-associate path (or a /me call's customer and unit). */
export interface AssociateScope {
  projectKey: string;
  /** The acting customer's id. */
  associateId: string;
  businessUnitKey: string;
}

/** How the permission module reads: the DocumentStore, or `readerLookup(reader)` inside a transaction. */
export interface PermissionDeps {
  documents: BusinessUnitLookup;
}

/** A permission, or a My/Others pair decided by the resource's customer. */
export type RequiredPermission = Permission | OwnedPermission;

export interface MissingPermissionDetails {
  associateId: string;
  businessUnitKey: string;
  /** The permissions of which at least one was needed (reference: "At least one of these"). */
  permissions: readonly Permission[];
  /** The customer whose resource it is, when not the associate (the reference's `associateOnBehalf`). */
  onBehalfOf?: string;
  /** What was attempted, for the message ("view carts", "update the business unit"). */
  action?: string;
}

/**
 * 403 `AssociateMissingPermission` with the reference's fields (types/error/AssociateMissingPermissionError):
 * `associate`, `businessUnit`, `associateOnBehalf` (resources of other customers), `permissions`.
 */
export function associateMissingPermissionError(details: MissingPermissionDetails): ApiError {
  const action = details.action ?? 'perform this action';
  const behalf = details.onBehalfOf === undefined ? '' : ` for customer '${details.onBehalfOf}'`;
  const needs = details.permissions.map((permission) => `'${permission}'`).join(' or ');
  return new ApiError(403, {
    code: 'AssociateMissingPermission',
    message: `Associate '${details.associateId}' has no rights to ${action}${behalf} in business-unit '${details.businessUnitKey}'. Needs ${needs}.`,
    associate: { typeId: 'customer', id: details.associateId },
    businessUnit: { typeId: BUSINESS_UNIT_TYPE_ID, key: details.businessUnitKey },
    ...(details.onBehalfOf === undefined ? {} : { associateOnBehalf: { typeId: 'customer', id: details.onBehalfOf } }),
    permissions: [...details.permissions],
  });
}

/**
 * The permission an operation needs on one resource: for a My/Others pair, `my` when the
 * resource's customer is the associate (or it has none yet, as a draft without `customerId`),
 * else `others`.
 */
export function neededPermission(required: RequiredPermission, associateId: string, resourceCustomerId?: string): Permission {
  if (typeof required === 'string') return required;
  return resourceCustomerId === undefined || resourceCustomerId === associateId ? required.my : required.others;
}

export interface RequirePermissionOptions {
  /** For the error message: what the associate tried ("create carts"). */
  action?: string;
}

/**
 * The check behind every as-associate operation and the /me business unit operations: the
 * associate's effective permissions in the unit (its own `associateRoleAssignments`, plus the
 * `Enabled` ones of ancestors when the unit's `associateMode` is `ExplicitAndFromParent`) must
 * contain the needed one, else 403 `AssociateMissingPermission`. A customer that is no associate
 * has no permissions, so it gets the same 403. A missing unit is 404 `ResourceNotFound`.
 *
 * Returns the unit, so callers need not read it again.
 */
export async function requirePermission(
  deps: PermissionDeps,
  scope: AssociateScope,
  required: RequiredPermission,
  resourceCustomerId?: string,
  options: RequirePermissionOptions = {},
): Promise<BusinessUnit> {
  const unit = await businessUnitOfPath(deps.documents, scope.projectKey, { key: scope.businessUnitKey });
  await requirePermissionIn(deps, scope.projectKey, unit, scope.associateId, required, resourceCustomerId, options);
  return unit;
}

/** `requirePermission` for a unit already read (e.g. inside an update's transaction). */
export async function requirePermissionIn(
  deps: PermissionDeps,
  projectKey: string,
  unit: BusinessUnit,
  associateId: string,
  required: RequiredPermission,
  resourceCustomerId?: string,
  options: RequirePermissionOptions = {},
): Promise<void> {
  const needed = neededPermission(required, associateId, resourceCustomerId);
  const granted = await effectivePermissions(deps.documents, projectKey, unit, associateId);
  if (granted.has(needed)) return;
  const onBehalfOf = resourceCustomerId !== undefined && resourceCustomerId !== associateId ? resourceCustomerId : undefined;
  throw associateMissingPermissionError({
    associateId,
    businessUnitKey: unit.key,
    permissions: [needed],
    ...(onBehalfOf === undefined ? {} : { onBehalfOf }),
    ...(options.action === undefined ? {} : { action: options.action }),
  });
}

/**
 * For queries (the reference: "Needs '$requiredViewMyPermission' or '$requiredViewOthersPermission'"):
 * which customers' resources the associate may see in the unit. `all` with the Others permission,
 * `own` with only the My one; neither → 403 naming both.
 */
export async function requireViewPermission(
  deps: PermissionDeps,
  scope: AssociateScope,
  required: OwnedPermission,
  options: RequirePermissionOptions = {},
): Promise<{ unit: BusinessUnit; sees: 'all' | 'own' }> {
  const unit = await businessUnitOfPath(deps.documents, scope.projectKey, { key: scope.businessUnitKey });
  const granted = await effectivePermissions(deps.documents, scope.projectKey, unit, scope.associateId);
  if (granted.has(required.others)) return { unit, sees: 'all' };
  if (granted.has(required.my)) return { unit, sees: 'own' };
  throw associateMissingPermissionError({
    associateId: scope.associateId,
    businessUnitKey: unit.key,
    permissions: [required.my, required.others],
    ...(options.action === undefined ? {} : { action: options.action }),
  });
}
