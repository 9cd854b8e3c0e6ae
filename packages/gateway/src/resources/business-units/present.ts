import { inheritedAssociatesOf, type InheritedAssociate } from '../associates/inherited-associates.js';
import type { BusinessUnitLookup } from './associates.js';
import type { BusinessUnit } from './business-unit.js';
import { withOfficialFields } from './modes.js';

export type PresentedBusinessUnit = BusinessUnit & { inheritedAssociates?: InheritedAssociate[] };

/**
 * A unit as REST answers it: every field the reference requires (also for units stored before
 * them), and `inheritedAssociates` when its `associateMode` is `ExplicitAndFromParent`.
 */
export async function presentBusinessUnit(lookup: BusinessUnitLookup, projectKey: string, unit: BusinessUnit): Promise<PresentedBusinessUnit> {
  const complete: PresentedBusinessUnit = withOfficialFields(unit);
  const inherited = await inheritedAssociatesOf(lookup, projectKey, complete);
  if (inherited !== undefined) complete.inheritedAssociates = inherited;
  return complete;
}
