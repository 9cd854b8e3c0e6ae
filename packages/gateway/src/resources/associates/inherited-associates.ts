import type { KeyReference, Reference } from '@herald/model';
import type { BusinessUnitLookup } from '../business-units/associates.js';
import { BUSINESS_UNIT_TYPE_ID, businessUnitReference, type BusinessUnit } from '../business-units/business-unit.js';
import { defaultMode, withRoleAssignments, type AssociateRoleAssignment } from '../business-units/modes.js';

/** The reference's InheritedAssociateRoleAssignment: the role and the ancestor it comes from. */
export interface InheritedAssociateRoleAssignment {
  associateRole: AssociateRoleAssignment['associateRole'];
  source: KeyReference<'business-unit'>;
}

/** The reference's InheritedAssociate. */
export interface InheritedAssociate {
  associateRoleAssignments: InheritedAssociateRoleAssignment[];
  customer: Reference<'customer'>;
}

/** A safety net against a corrupt tree (a cycle); real trees are far shallower. */
const MAX_DEPTH = 100;

export function inheritsFromParent(unit: Pick<BusinessUnit, 'associateMode' | 'unitType' | 'parentUnit'>): boolean {
  return (unit.associateMode ?? defaultMode(unit.unitType)) === 'ExplicitAndFromParent' && unit.parentUnit !== undefined;
}

/**
 * The ancestors a unit inherits associates from (reference: BusinessUnitAssociateMode): the
 * parent when the unit's `associateMode` is `ExplicitAndFromParent`, then the parent's parent
 * while each one inherits in turn; an `Explicit` unit ends the walk (after its own associates).
 */
export async function inheritanceSources(lookup: BusinessUnitLookup, projectKey: string, unit: BusinessUnit): Promise<BusinessUnit[]> {
  const sources: BusinessUnit[] = [];
  let current = unit;
  for (let depth = 0; depth < MAX_DEPTH && inheritsFromParent(current); depth += 1) {
    const parentKey = current.parentUnit?.key;
    if (parentKey === undefined) break;
    const parent = await lookup.get<BusinessUnit>(projectKey, BUSINESS_UNIT_TYPE_ID, { key: parentKey });
    if (parent === undefined) break;
    sources.push(parent);
    current = parent;
  }
  return sources;
}

/** The `Enabled` assignments of each source's associates, grouped by customer (first source first). */
export function inheritedFrom(sources: readonly BusinessUnit[]): InheritedAssociate[] {
  const byCustomer = new Map<string, InheritedAssociate>();
  for (const source of sources) {
    for (const associate of source.associates.map(withRoleAssignments)) {
      for (const assignment of associate.associateRoleAssignments ?? []) {
        if (assignment.inheritance !== 'Enabled') continue;
        const entry = byCustomer.get(associate.customer.id) ?? { associateRoleAssignments: [], customer: associate.customer };
        entry.associateRoleAssignments.push({ associateRole: assignment.associateRole, source: businessUnitReference(source.key) });
        byCustomer.set(associate.customer.id, entry);
      }
    }
  }
  return [...byCustomer.values()];
}

/**
 * The unit's `inheritedAssociates` (reference: BusinessUnit.inheritedAssociates, "only present when
 * the associateMode is ExplicitAndFromParent"): computed from the tree when answering, so it is
 * always current (the platform's is eventually consistent).
 */
export async function inheritedAssociatesOf(lookup: BusinessUnitLookup, projectKey: string, unit: BusinessUnit): Promise<InheritedAssociate[] | undefined> {
  if ((unit.associateMode ?? defaultMode(unit.unitType)) !== 'ExplicitAndFromParent') return undefined;
  return inheritedFrom(await inheritanceSources(lookup, projectKey, unit));
}
