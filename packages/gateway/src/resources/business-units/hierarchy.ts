import { invalidInput, invalidOperation } from '@herald/model';
import { DocumentStore, type WriteContext } from '@herald/store';
import { identifierLocator, loadReferenced, type Load } from '../shared/references.js';
import { BUSINESS_UNIT_TYPE_ID, businessUnitReference, type BusinessUnit, type BusinessUnitKeyReference } from './business-unit.js';
import { everyMatch } from '../shared/every-match.js';

/** Where a unit sits in its tree: what `parentUnit`, `ancestors` and `topLevelUnit` say (§2.2). */
export type Ancestry = Pick<BusinessUnit, 'parentUnit' | 'ancestors' | 'topLevelUnit'>;

/** §2.2: a Company has no parent; it is its own top-level unit. */
export function companyAncestry(key: string): Ancestry {
  return { ancestors: [], topLevelUnit: businessUnitReference(key) };
}

/** A Division below `parent`: ancestors run from the Company down to the direct parent (§2.2). */
export function childAncestry(parent: BusinessUnit): Ancestry {
  const parentRef = businessUnitReference(parent.key);
  return { parentUnit: parentRef, ancestors: [...parent.ancestors, parentRef], topLevelUnit: parent.topLevelUnit };
}

/** The parent named by a ResourceIdentifier; it must exist. */
export function loadParent(load: Load, value: unknown, field: string): Promise<BusinessUnit> {
  return loadReferenced<BusinessUnit>(load, BUSINESS_UNIT_TYPE_ID, identifierLocator(value, field, BUSINESS_UNIT_TYPE_ID));
}

/** `changeParentUnit` refuses to make a unit its own ancestor (§4.3; the tree must stay a tree). */
export function assertNotBelow(unit: BusinessUnit, newParent: BusinessUnit): void {
  if (newParent.id === unit.id || newParent.ancestors.some((ancestor) => ancestor.key === unit.key)) {
    throw invalidOperation(
      `The business unit '${newParent.key}' cannot become the parent of '${unit.key}': it is '${unit.key}' itself or one of its descendants.`,
    );
  }
}

export function sameAncestry(a: Ancestry, b: Ancestry): boolean {
  const keys = (refs: readonly BusinessUnitKeyReference[]) => refs.map((ref) => ref.key).join('\u0000');
  return a.parentUnit?.key === b.parentUnit?.key && a.topLevelUnit.key === b.topLevelUnit.key && keys(a.ancestors) === keys(b.ancestors);
}

export function setAncestry(unit: BusinessUnit, ancestry: Ancestry): void {
  if (ancestry.parentUnit === undefined) delete unit.parentUnit;
  else unit.parentUnit = ancestry.parentUnit;
  unit.ancestors = ancestry.ancestors;
  unit.topLevelUnit = ancestry.topLevelUnit;
}

/** Every unit below `unit` (those whose `ancestors` name it), in id order. */
export function descendantsOf(store: DocumentStore, projectKey: string, unit: Pick<BusinessUnit, 'key'>): Promise<BusinessUnit[]> {
  return everyMatch<BusinessUnit>(store, projectKey, BUSINESS_UNIT_TYPE_ID, 'ancestors(key = :unit)', { unit: [unit.key] });
}

/**
 * After `unit` moved (changeParentUnit), every descendant gets the new `ancestors` and
 * `topLevelUnit`, in the same transaction: each is a normal versioned update with its own
 * ResourceUpdated change notification (§6.2 "also sent for updates by automatic background
 * tasks"); they cause no messages, as §6.1 lists none for them.
 *
 * Units created below a descendant by a concurrent request that read the old tree can keep the
 * old ancestry; Herald accepts that race rather than locking whole trees.
 */
export async function propagateAncestry(store: DocumentStore, write: WriteContext, unit: BusinessUnit): Promise<void> {
  const unitRef = businessUnitReference(unit.key);
  for (const descendant of await descendantsOf(store, write.projectKey, unit)) {
    const below = descendant.ancestors.findIndex((ancestor) => ancestor.key === unit.key);
    if (below < 0) continue;
    const ancestors = [...unit.ancestors, unitRef, ...descendant.ancestors.slice(below + 1)];
    await store.update<BusinessUnit>(write, BUSINESS_UNIT_TYPE_ID, { id: descendant.id }, descendant.version, (current) => ({
      doc: { ...current, ancestors, topLevelUnit: unit.topLevelUnit },
    }));
  }
}

/** Units whose direct parent is `unit`: a unit with children cannot be deleted. */
export async function hasChildren(store: DocumentStore, projectKey: string, unit: Pick<BusinessUnit, 'key'>): Promise<boolean> {
  const page = await store.query<BusinessUnit>(projectKey, BUSINESS_UNIT_TYPE_ID, {
    where: ['parentUnit(key = :unit)'],
    vars: { unit: [unit.key] },
    limit: 1,
    withTotal: false,
  });
  return page.results.length > 0;
}

export function requireDivisionParent(value: unknown): void {
  if (value === undefined || value === null) {
    throw invalidInput("A Division must have a 'parentUnit' (§2.2).", { field: 'parentUnit' });
  }
}
