import { invalidInput, invalidOperation, requiredField, type MessagePayload } from '@herald/model';
import type { ActionHandlers, UpdateAction } from '../shared/update-actions.js';
import type { Load } from '../shared/references.js';
import { BUSINESS_UNIT_TYPES, isOneOf, type BusinessUnit, type BusinessUnitType } from './business-unit.js';
import { assertNotBelow, childAncestry, companyAncestry, loadParent, setAncestry, type Ancestry } from './hierarchy.js';
import { defaultMode } from './modes.js';

/*
 * The reference's BusinessUnitSetUnitTypeAction (types/business-unit/updates, beta) and its
 * BusinessUnitTypeSet message. REST only, like the mode actions: §4.3 fixes GraphQL's members.
 *
 * - Division → Company: "the Business Unit storeMode, associateMode, and approvalRuleMode field
 *   values must be Explicit" (a Company has no parent to inherit from); the unit leaves its tree
 *   and heads its own. Herald refuses (400 InvalidOperation) rather than changing the modes itself.
 * - Company → Division: `parentUnit` ("New parent unit … if unitType=Division") is required, and
 *   must not be the unit or one of its own Divisions, as for changeParentUnit.
 * - Division → Division with another `parentUnit` moves it, as changeParentUnit would.
 * The unit's Divisions follow its new ancestry in the same transaction (service.ts).
 */

function unitTypeOf(action: UpdateAction): BusinessUnitType {
  if (action.unitType === undefined || action.unitType === null) throw requiredField('unitType');
  if (!isOneOf(BUSINESS_UNIT_TYPES, action.unitType)) {
    throw invalidInput(`'unitType' must be one of ${BUSINESS_UNIT_TYPES.join(', ')}.`, { field: 'unitType', invalidValue: action.unitType });
  }
  return action.unitType;
}

const given = (value: unknown): boolean => value !== undefined && value !== null;

/** The modes that would let a Company inherit from a parent it does not have. */
function inheritingModes(unit: BusinessUnit): string[] {
  const modes = {
    storeMode: unit.storeMode,
    associateMode: unit.associateMode ?? defaultMode(unit.unitType),
    approvalRuleMode: unit.approvalRuleMode ?? defaultMode(unit.unitType),
  };
  return Object.entries(modes)
    .filter(([, mode]) => mode !== 'Explicit')
    .map(([field]) => field);
}

function companyAncestryFor(unit: BusinessUnit, action: UpdateAction): Ancestry {
  if (given(action.parentUnit)) throw invalidInput("A Company has no parent unit; omit 'parentUnit'.", { field: 'parentUnit' });
  const inheriting = inheritingModes(unit);
  if (inheriting.length > 0) {
    throw invalidOperation(
      `A Company's storeMode, associateMode and approvalRuleMode must be Explicit; '${unit.key}' has ${inheriting.join(', ')} inheriting.`,
    );
  }
  return companyAncestry(unit.key);
}

async function divisionAncestryFor(unit: BusinessUnit, action: UpdateAction, load: Load): Promise<Ancestry> {
  if (!given(action.parentUnit)) {
    // A Division staying one keeps its parent; a Company needs one to become a Division.
    if (unit.unitType === 'Division' && unit.parentUnit !== undefined) {
      return { parentUnit: unit.parentUnit, ancestors: unit.ancestors, topLevelUnit: unit.topLevelUnit };
    }
    throw requiredField('parentUnit');
  }
  const parent = await loadParent(load, action.parentUnit, 'parentUnit');
  assertNotBelow(unit, parent);
  return childAncestry(parent);
}

export const unitTypeActions: ActionHandlers<BusinessUnit> = {
  async setUnitType(unit, action, { reader }): Promise<MessagePayload[]> {
    const unitType = unitTypeOf(action);
    const oldUnitType = unit.unitType;
    const oldParentUnit = unit.parentUnit;
    const ancestry = unitType === 'Company' ? companyAncestryFor(unit, action) : await divisionAncestryFor(unit, action, reader.get);
    if (unitType === oldUnitType && ancestry.parentUnit?.key === oldParentUnit?.key) return [];
    unit.unitType = unitType;
    setAncestry(unit, ancestry);
    const message: MessagePayload = { type: 'BusinessUnitTypeSet', unitType, oldUnitType };
    if (unit.parentUnit !== undefined) message.parentUnit = unit.parentUnit;
    if (oldParentUnit !== undefined) message.oldParentUnit = oldParentUnit;
    return [message];
  },
};
