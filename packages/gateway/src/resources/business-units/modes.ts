import { invalidInput, invalidOperation, type MessagePayload } from '@herald/model';
import { ASSOCIATE_ROLE_TYPE_ID, type AssociateRole as StoredAssociateRole } from '../associate-roles/associate-role.js';
import { identifierLocator, loadReferenced, type Load } from '../shared/references.js';
import type { ActionHandlers } from '../shared/update-actions.js';
import { ASSOCIATE_ROLES, isOneOf, type Associate, type AssociateRole, type BusinessUnit, type BusinessUnitType } from './business-unit.js';

/*
 * What the reference's BusinessUnit (types/business-unit) requires beyond §2.2: `associateMode`
 * and `approvalRuleMode` on every unit, `associateRoleAssignments` on every Associate. Herald's
 * associate roles are the two of §2.2 (the reference's deprecated AssociateRoleDeprecated, kept
 * in `roles`); as assignments they are KeyReferences to the built-in associate roles keyed `Admin`
 * and `Buyer` (associates/built-in-roles.ts). Stored AssociateRoles are assigned by key too.
 */

/** The reference's Associate.associateRoleAssignments: `maxItems: 5`. */
export const MAX_ROLE_ASSIGNMENTS = 5;

export const INHERITABLE_MODES = ['Explicit', 'ExplicitAndFromParent'] as const;
export type InheritableMode = (typeof INHERITABLE_MODES)[number];
export const INHERITANCE_MODES = ['Enabled', 'Disabled'] as const;
export type InheritanceMode = (typeof INHERITANCE_MODES)[number];

/** The reference's AssociateRoleAssignment: a built-in role (`Admin`, `Buyer`) or a stored AssociateRole, by key. */
export interface AssociateRoleAssignment {
  associateRole: { typeId: 'associate-role'; key: string };
  inheritance: InheritanceMode;
}

/** The reference's defaults: a Company's modes are Explicit, a Division's ExplicitAndFromParent. */
export function defaultMode(unitType: BusinessUnitType): InheritableMode {
  return unitType === 'Company' ? 'Explicit' : 'ExplicitAndFromParent';
}

/** `associateMode` or `approvalRuleMode` of a draft or action; "Only … Division can use ExplicitAndFromParent". */
export function inheritableMode(value: unknown, field: string, unitType: BusinessUnitType): InheritableMode {
  if (value === undefined || value === null) return defaultMode(unitType);
  if (!isOneOf(INHERITABLE_MODES, value)) {
    throw invalidInput(`'${field}' must be one of ${INHERITABLE_MODES.join(', ')}.`, { field, invalidValue: value });
  }
  if (value === 'ExplicitAndFromParent' && unitType === 'Company') {
    throw invalidInput(`A Company has no parent to inherit from: its '${field}' is Explicit.`, { field, invalidValue: value });
  }
  return value;
}

export function roleAssignment(role: AssociateRole, inheritance: InheritanceMode = 'Disabled'): AssociateRoleAssignment {
  return { associateRole: { typeId: 'associate-role', key: role }, inheritance };
}

/** The Associate with its `associateRoleAssignments` (derived from `roles` when stored without). */
export function withRoleAssignments(associate: Associate): Associate {
  if (associate.associateRoleAssignments !== undefined) return associate;
  return { ...associate, associateRoleAssignments: associate.roles.map((role) => roleAssignment(role)) };
}

/** The unit with every field the reference requires; stored units from before them get defaults. */
export function withOfficialFields(unit: BusinessUnit): BusinessUnit {
  return {
    ...unit,
    associateMode: unit.associateMode ?? defaultMode(unit.unitType),
    approvalRuleMode: unit.approvalRuleMode ?? defaultMode(unit.unitType),
    associates: unit.associates.map(withRoleAssignments),
  };
}

/**
 * The role named by an AssociateRoleAssignmentDraft's `associateRole` (a ResourceIdentifier):
 * Herald's associate roles are `Admin` and `Buyer`, found by key (any letter case) or by id.
 */
export function assignedRole(value: unknown, field: string): AssociateRole {
  const identifier = (typeof value === 'object' && value !== null ? value : {}) as { typeId?: unknown; key?: unknown; id?: unknown };
  if (identifier.typeId !== undefined && identifier.typeId !== 'associate-role') {
    throw invalidInput(`'${field}.typeId' must be 'associate-role'.`, { field, invalidValue: identifier.typeId });
  }
  const name = typeof identifier.key === 'string' ? identifier.key : identifier.id;
  const role = ASSOCIATE_ROLES.find((known) => typeof name === 'string' && known.toLowerCase() === name.toLowerCase());
  if (role === undefined) {
    throw invalidInput(`'${field}' must name the associate role Admin or Buyer (by key).`, { field, invalidValue: value });
  }
  return role;
}

/**
 * The key of the role named by an AssociateRoleAssignmentDraft's `associateRole` (a
 * ResourceIdentifier): a built-in role by key in any letter case (as before stored roles
 * existed), else a stored AssociateRole by key or id (400 ReferencedResourceNotFound if missing).
 */
export async function assignedRoleKey(value: unknown, field: string, load: Load): Promise<string> {
  const identifier = (typeof value === 'object' && value !== null ? value : {}) as { typeId?: unknown; key?: unknown; id?: unknown };
  if (identifier.typeId !== undefined && identifier.typeId !== null && identifier.typeId !== ASSOCIATE_ROLE_TYPE_ID) {
    throw invalidInput(`'${field}.typeId' must be 'associate-role'.`, { field, invalidValue: identifier.typeId });
  }
  const name = typeof identifier.key === 'string' ? identifier.key : identifier.id;
  const builtIn = ASSOCIATE_ROLES.find((known) => typeof name === 'string' && known.toLowerCase() === name.toLowerCase());
  if (builtIn !== undefined) return builtIn;
  const role = await loadReferenced<StoredAssociateRole>(load, ASSOCIATE_ROLE_TYPE_ID, identifierLocator(value, field, ASSOCIATE_ROLE_TYPE_ID));
  return role.key;
}

/** The reference's AssociateDraft.associateRoleAssignments: 1 to 5 of them, one per role. */
export async function roleAssignmentsFromDraft(value: unknown, field: string, load: Load): Promise<AssociateRoleAssignment[]> {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_ROLE_ASSIGNMENTS) {
    throw invalidInput(`'${field}' must list 1 to ${MAX_ROLE_ASSIGNMENTS} associate role assignments.`, { field });
  }
  const assignments: AssociateRoleAssignment[] = [];
  for (const [index, item] of value.entries()) {
    const draft = (typeof item === 'object' && item !== null ? item : {}) as { associateRole?: unknown; inheritance?: unknown };
    const key = await assignedRoleKey(draft.associateRole, `${field}[${index}].associateRole`, load);
    const inheritance = draft.inheritance ?? 'Disabled';
    if (!isOneOf(INHERITANCE_MODES, inheritance)) {
      throw invalidInput(`'${field}[${index}].inheritance' must be Enabled or Disabled.`, { field, invalidValue: inheritance });
    }
    if (!assignments.some((known) => known.associateRole.key === key))
      assignments.push({ associateRole: { typeId: ASSOCIATE_ROLE_TYPE_ID, key }, inheritance });
  }
  return assignments;
}

function modeChange(field: 'associateMode' | 'approvalRuleMode', messageType: string, oldField: string): ActionHandlers<BusinessUnit>[string] {
  return (unit, action): MessagePayload[] => {
    const requested = action[field];
    if (requested === undefined || requested === null) throw invalidInput(`'${field}' is required.`, { field });
    if (requested === 'ExplicitAndFromParent' && unit.unitType === 'Company') {
      throw invalidOperation(`'${unit.key}' is a Company; only Divisions can use ExplicitAndFromParent.`);
    }
    const current = unit[field] ?? defaultMode(unit.unitType);
    const mode = inheritableMode(requested, field, unit.unitType);
    unit[field] = mode;
    if (mode === current) return [];
    return [{ type: messageType, [field]: mode, [oldField]: current }];
  };
}

/** The reference's changeAssociateMode and changeApprovalRuleMode (REST; not members of §4.3's GraphQL input). */
export const modeActions: ActionHandlers<BusinessUnit> = {
  changeAssociateMode: modeChange('associateMode', 'BusinessUnitAssociateModeChanged', 'oldAssociateMode'),
  changeApprovalRuleMode: modeChange('approvalRuleMode', 'BusinessUnitApprovalRuleModeChanged', 'oldApprovalRuleMode'),
};
